// The new-event form follows the game chosen at once (issue 36): when the organiser picks
// another game, the form's game parts (the size under the game's name and its default, the
// table sizes the game allows, the draw methods, the tie-breaks and the game's own options)
// are replaced by those of the same page asked for that game (?variant=, the server's own
// rendering, in the page's language); what the organiser typed elsewhere stays. Without
// scripts, or if the page cannot be fetched, saving shows the chosen game's form instead.
(function () {
  "use strict";
  var asked = 0;
  document.addEventListener("change", function (event) {
    var select = event.target;
    var form = select.form;
    if (select.name !== "variant" || !form || !form.dataset.gameForm) {
      return;
    }
    var ask = ++asked;
    var draw = form.elements.default_draw_method;
    var drawn = draw ? draw.value : "";
    form.setAttribute("aria-busy", "true");
    fetch(form.dataset.gameForm + "?variant=" + encodeURIComponent(select.value),
          {credentials: "same-origin"})
      .then(function (response) {
        if (!response.ok) { throw new Error(response.status); }
        return response.text();
      })
      .then(function (html) {
        if (ask !== asked) { return; }  // a later choice is on its way
        var page = new DOMParser().parseFromString(html, "text/html");
        var fresh = page.querySelector("form[data-game-form]");
        if (!fresh) { return; }
        form.querySelectorAll("[data-game-part]").forEach(function (part) {
          var other = fresh.querySelector("#" + part.id);
          if (other) {
            part.replaceWith(document.importNode(other, true));
          }
        });
        form.elements.shown_family.value = fresh.elements.shown_family.value;
        draw = form.elements.default_draw_method;
        if (draw && Array.prototype.some.call(draw.options, function (o) {
          return o.value === drawn;
        })) {
          draw.value = drawn;  // the same methods, in the game's words
        }
        form.dataset.family = fresh.dataset.family;
      })
      .catch(function () { /* saving shows the chosen game's form */ })
      .then(function () {
        if (ask === asked) { form.removeAttribute("aria-busy"); }
      });
  });
})();
