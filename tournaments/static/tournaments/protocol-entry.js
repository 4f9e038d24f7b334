// Progressive enhancement of the protocol pages; every page works without it.
// Referee's desk: Ctrl+Enter (or Cmd+Enter) in the notation box saves.
// Table entry: scroll to the last deal; a deal without a contract (raspasy, all passed: the
// kind radio marked data-no-contract) hides the fields marked data-contract; a field marked
// data-kinds shows for the kinds it lists only.
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
      // fields that belong to some kinds only: data-kinds="hand tvangsnoll"
      var kind = form.querySelector("input[name=kind]:checked");
      form.querySelectorAll("[data-kinds]").forEach(function (el) {
        var other = kind && el.dataset.kinds.split(" ").indexOf(kind.value) < 0;
        el.hidden = Boolean(other || (hide && el.hasAttribute("data-contract")));
      });
    };
    form.querySelectorAll("input[name=kind]").forEach(function (el) { el.addEventListener("change", sync); });
    sync();
  }
}());
