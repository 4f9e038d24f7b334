// Progressive enhancement of the protocol pages; every page works without it.
// Referee's desk: Ctrl+Enter (or Cmd+Enter) in the notation box saves.
// Table entry: scroll to the last deal; a deal without a contract (raspasy, all passed: the
// kind radio marked data-no-contract) hides the fields marked data-contract.
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
      var none = form.querySelector("input[name=kind][data-no-contract]");
      var hide = Boolean(none && none.checked);
      form.querySelectorAll("[data-contract]").forEach(function (el) { el.hidden = hide; });
    };
    form.querySelectorAll("input[name=kind]").forEach(function (el) { el.addEventListener("change", sync); });
    sync();
  }
}());
