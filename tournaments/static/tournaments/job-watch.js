/* A staff page following the event's background jobs (templates/tournaments/_job_watch.html):
 * while a job runs (data-running="1") it asks GET <state-url>?v=<version> every data-seconds and,
 * when the answer's version differs (a job started, moved on or ended), loads the page again.
 * A form being filled in is never lost: while a field has the focus, differs from what the page
 * was served with, or shows an error to correct, the page says that the jobs moved on and offers
 * a button to reload instead. The scroll position survives the reload (also onto the page that
 * no longer asks, once nothing runs). No framework. */
(function () {
  "use strict";
  var script = document.currentScript || document.getElementById("job-watch");
  if (!script) { return; }
  var stateUrl = script.getAttribute("data-state-url");
  var version = script.getAttribute("data-version");
  var waitMs = 1000 * Math.max(1, Number(script.getAttribute("data-seconds") || 3));
  var scrollKey = "pulka-job-watch-scroll:" + window.location.pathname + window.location.search;

  function restoreScroll() {
    try {
      var y = window.sessionStorage.getItem(scrollKey);
      if (y !== null) {
        window.sessionStorage.removeItem(scrollKey);
        window.scrollTo(0, Number(y) || 0);
      }
    } catch (e) { /* storage refused: the page starts at the top */ }
  }

  function isField(el) {
    if (!el || !el.form) { return false; }
    var tag = el.tagName.toLowerCase();
    if (tag === "textarea" || tag === "select") { return true; }
    if (tag !== "input") { return false; }
    return ["hidden", "submit", "button", "reset", "image"].indexOf(el.type) < 0;
  }

  function changed(el) {
    var tag = el.tagName.toLowerCase();
    if (tag === "select") {
      for (var i = 0; i < el.options.length; i++) {
        if (el.options[i].selected !== el.options[i].defaultSelected) {
          /* a select without a default selected option shows its first one */
          var anyDefault = false;
          for (var k = 0; k < el.options.length; k++) {
            if (el.options[k].defaultSelected) { anyDefault = true; }
          }
          if (anyDefault || el.selectedIndex !== 0) { return true; }
        }
      }
      return false;
    }
    if (el.type === "checkbox" || el.type === "radio") { return el.checked !== el.defaultChecked; }
    if (el.type === "file") { return el.value !== ""; }
    return el.value !== el.defaultValue;
  }

  /* whether reloading now would lose what someone is typing or has to correct */
  function busy() {
    if (isField(document.activeElement)) { return true; }
    if (document.querySelector(".errorlist, [aria-invalid='true']")) { return true; }
    var fields = document.querySelectorAll("input, select, textarea");
    for (var i = 0; i < fields.length; i++) {
      if (isField(fields[i]) && changed(fields[i])) { return true; }
    }
    return false;
  }

  function reload() {
    try { window.sessionStorage.setItem(scrollKey, String(window.scrollY)); } catch (e) { /* */ }
    /* a GET of the same address, never a form sent again */
    window.location.replace(window.location.href.split("#")[0]);
  }

  function offerReload() {
    if (document.getElementById("job-watch-changed")) { return; }
    var note = document.createElement("p");
    note.id = "job-watch-changed";
    note.className = "notice";
    note.setAttribute("role", "status");
    note.appendChild(document.createTextNode(script.getAttribute("data-changed") + " "));
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = script.getAttribute("data-reload");
    button.addEventListener("click", reload);
    note.appendChild(button);
    var main = document.getElementById("main") || document.body;
    main.insertBefore(note, main.firstChild);
  }

  function poll() {
    fetch(stateUrl + "?v=" + encodeURIComponent(version), {
      headers: { "Accept": "application/json" }, cache: "no-store", credentials: "same-origin"
    })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.json();
      })
      .then(function (data) {
        if (data.version !== version) {
          if (!busy()) { reload(); return; }
          offerReload();
          if (!data.running) { return; }  /* nothing more will change: the offer stays */
        }
        setTimeout(poll, waitMs);
      })
      .catch(function () { setTimeout(poll, 2 * waitMs); });  /* offline: ask again, slower */
  }

  restoreScroll();
  if (script.getAttribute("data-running") === "1") { setTimeout(poll, waitMs); }
}());
