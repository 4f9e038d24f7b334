// A select marked data-autosubmit (the language switcher) sends its form when it changes: an
// event handler in a script file, not an inline onchange, which the Content-Security-Policy
// (script-src 'self', issue 38) refuses. Without scripts the form's own button sends it.
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var field = event.target;
    if (field.matches && field.matches("select[data-autosubmit]") && field.form) {
      field.form.submit();
    }
  });
})();
