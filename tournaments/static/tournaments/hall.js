/* The projector in the hall (templates/tournaments/hall/projector.html): shows one page at a
 * time, turns the page every data-page-seconds, and asks the server every data-poll-seconds
 * whether the round, its seating or the standings changed (GET <state-url>?v=<version>: the
 * version alone while nothing changed, the new pages' HTML when something did). No framework;
 * the arrow keys turn the pages by hand. */
(function () {
  "use strict";
  var hall = document.getElementById("hall");
  if (!hall) { return; }
  var pager = document.getElementById("hall-pager");
  var offline = document.getElementById("hall-offline");
  var pageMs = 1000 * Number(hall.getAttribute("data-page-seconds") || 12);
  var pollMs = 1000 * Number(hall.getAttribute("data-poll-seconds") || 5);
  var index = 0;
  var timer = null;

  function pages() { return hall.querySelectorAll(".hall-page"); }

  /* The page shown fits the screen: every row inside the hall, no name cut, at any projector
   * size (issue 36). The type starts at the style sheet's size and shrinks a pixel at a time
   * until the page's bottom and right edge are inside the hall. */
  function fits(page) {
    var box = hall.getBoundingClientRect();
    var own = page.getBoundingClientRect();
    return own.bottom <= box.bottom + 0.5 && page.scrollWidth <= page.clientWidth + 1 &&
      own.right <= box.right + 0.5;
  }

  function fit(page) {
    hall.style.fontSize = "";
    var size = parseFloat(window.getComputedStyle(hall).fontSize);
    while (!fits(page) && size > 8) {
      size -= 1;
      hall.style.fontSize = size + "px";
    }
  }

  function show(i) {
    var all = pages();
    if (!all.length) { return; }
    index = ((i % all.length) + all.length) % all.length;
    for (var k = 0; k < all.length; k++) { all[k].hidden = k !== index; }
    fit(all[index]);
    hall.setAttribute("data-page", String(index + 1));
    pager.textContent = all.length > 1 ? (index + 1) + " / " + all.length : "";
  }

  function restart() {
    if (timer !== null) { clearInterval(timer); }
    timer = setInterval(function () { show(index + 1); }, pageMs);
  }

  function poll() {
    var url = hall.getAttribute("data-state-url") + "?v=" +
      encodeURIComponent(hall.getAttribute("data-version"));
    fetch(url, { headers: { "Accept": "application/json" }, cache: "no-store" })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.json();
      })
      .then(function (data) {
        offline.hidden = true;
        if (typeof data.html === "string" && data.version !== hall.getAttribute("data-version")) {
          hall.innerHTML = data.html;
          hall.setAttribute("data-version", data.version);
          show(0);  /* something changed: start again from the round's seating */
          restart();
        }
      })
      .catch(function () { offline.hidden = false; })
      .then(function () { setTimeout(poll, pollMs); });
  }

  window.addEventListener("resize", function () {
    var all = pages();
    if (all.length) { fit(all[index]); }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight" || event.key === "PageDown" || event.key === " ") {
      show(index + 1); restart();
    } else if (event.key === "ArrowLeft" || event.key === "PageUp") {
      show(index - 1); restart();
    }
  });

  show(0);
  restart();
  setTimeout(poll, pollMs);
}());
