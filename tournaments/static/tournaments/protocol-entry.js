// Progressive enhancement of the protocol pages; every page works without it.
// Referee's desk: Ctrl+Enter (or Cmd+Enter) in the notation box saves.
// Table entry: scroll to the last deal; raspasy hides the declarer and contract fields.
(function () {
  "use strict";
  var box = document.getElementById("notation");
  if (box) {
    box.addEventListener("keydown", function (e) {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        box.form.requestSubmit ? box.form.requestSubmit() : box.form.submit();
      }
    });
  }
  var form = document.querySelector("form.deal-form");
  if (form) {
    var sync = function () {
      var raspasy = form.querySelector("input[name=kind][value=raspasy]").checked;
      ["declarer", "contract"].forEach(function (id) {
        var el = document.getElementById(id);
        if (el) { el.closest("label").hidden = raspasy; }
      });
      form.querySelectorAll("select[name^=call_]").forEach(function (el) { el.hidden = raspasy; });
    };
    form.querySelectorAll("input[name=kind]").forEach(function (el) { el.addEventListener("change", sync); });
    sync();
  }
}());
