// A table wider than the screen scrolls inside its own box (pulka.css); such a box is reached
// and scrolled with the keyboard too (tabindex 0), as axe-core's "scrollable-region-focusable"
// asks. Boxes that fit are left out of the tab order. Runs on load and when the width changes.
(function () {
  "use strict";
  function mark() {
    document.querySelectorAll(".scroll, main table").forEach(function (box) {
      var scrolls = box.scrollWidth > box.clientWidth + 1 &&
        getComputedStyle(box).overflowX !== "visible";
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.dataset.scrollBox = "";
      } else if (!scrolls && box.dataset.scrollBox !== undefined) {
        box.removeAttribute("tabindex");
        delete box.dataset.scrollBox;
      }
    });
  }
  document.addEventListener("DOMContentLoaded", mark);
  window.addEventListener("resize", mark);
})();
