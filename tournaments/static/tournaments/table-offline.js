// The table's phone without the hall's network (issue 42). Plain JavaScript, no framework.
//
// Every form of the table's page (a deal added, corrected or deleted, a row the players wrote,
// the ending) carries an id made here. Online with nothing held, the form goes as it always
// did (the service worker keeps it in the outbox should its answer never come); offline, or
// behind what the phone already holds, it goes into the outbox kept on the phone (IndexedDB),
// sent in order to /t/<key>/send when the network is back. The server stores a resend of an id
// once and answers what it answered the first time. Each send builds on a version: the page's
// for the first, the version the entry before it was saved as for the next. The server refuses
// a stale version: the page then shows what was saved meanwhile beside what the phone holds,
// and asks; nothing is overwritten. A closed round stops the sending with the server's reason,
// a revoked key (404) for good. The words come from the page (#outbox-words, JSON); the service
// worker (/t/<key>/sw.js) keeps the page for a phone that reopens it offline. A player's own
// page (/p/<key>/protocols/, its own worker) keeps his confirmations the same way.
(function () {
  "use strict";
  var box = document.getElementById("outbox");
  var wordsTag = document.getElementById("outbox-words");
  if (!box || !wordsTag || !window.indexedDB || !window.fetch || !window.Promise) { return; }
  var words = JSON.parse(wordsTag.textContent);
  var PAGE = box.dataset.page;
  var SEND = box.dataset.send;
  var list = box.querySelector(".entries");
  var network = box.querySelector(".network");
  var STORE = "entries";
  var sending = false;
  var savedHere = 0; // entries this page saw saved: the page reloads to show the server's pulka
  var retry = null;

  if ("serviceWorker" in navigator && box.dataset.worker) {
    navigator.serviceWorker.register(box.dataset.worker, { scope: PAGE }).catch(function () {});
  }

  function say(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, name) {
      return values[name] === undefined ? all : String(values[name]);
    });
  }

  // --- the outbox in IndexedDB ------------------------------------------------------------
  var opened = null;
  function db() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        var request = indexedDB.open("pulka-outbox", 1);
        request.onupgradeneeded = function () {
          var store = request.result.createObjectStore(STORE, { keyPath: "id" });
          store.createIndex("page", "page");
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      });
    }
    return opened;
  }
  function tx(mode, work) {
    return db().then(function (base) {
      return new Promise(function (resolve, reject) {
        var t = base.transaction(STORE, mode);
        var result = work(t.objectStore(STORE));
        t.oncomplete = function () { resolve(result && "result" in result ? result.result : result); };
        t.onerror = function () { reject(t.error); };
      });
    });
  }
  function entries() {
    return tx("readonly", function (store) { return store.index("page").getAll(PAGE); })
      .then(function (found) {
        return found.sort(function (a, b) { return a.created - b.created; });
      });
  }
  function put(entry) { return tx("readwrite", function (store) { store.put(entry); }); }
  function remove(ids) {
    return tx("readwrite", function (store) { ids.forEach(function (id) { store.delete(id); }); });
  }

  function newId() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  var counter = 0;

  // --- what an entry says to the players ---------------------------------------------------
  function shown(el) { return !el.closest("[hidden]"); }
  function labelOf(el) {
    if (el.getAttribute("aria-label")) { return el.getAttribute("aria-label"); }
    var label = el.closest("label");
    if (!label) { return ""; }
    var text = "";
    label.childNodes.forEach(function (node) { if (node.nodeType === 3) { text += node.textContent; } });
    return text.trim();
  }
  function describe(form) {
    var parts = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit" || !shown(el)) { return; }
      if (el.type === "radio" || el.type === "checkbox") {
        if (el.checked) { parts.push(el.closest("label") ? el.closest("label").textContent.trim() : el.value); }
      } else if (el.tagName === "SELECT") {
        if (el.value !== "" && el.selectedIndex >= 0) {
          var name = labelOf(el);
          var text = el.options[el.selectedIndex].textContent.trim();
          parts.push(name ? name + ": " + text : text);
        }
      } else if (el.value !== "") {
        parts.push((labelOf(el) || el.name) + ": " + el.value);
      }
    });
    return parts.join(" · ");
  }
  function describeFields(form, fields) { // what a kept entry says, read off its form
    var copy = form.cloneNode(true);
    fill(copy, fields);
    return describe(copy);
  }
  function fill(form, fields) {
    var names = {};
    fields.forEach(function (pair) { names[pair[0]] = pair[1]; });
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit") { return; }
      if (el.type === "radio") { el.checked = names[el.name] === el.value; }
      else if (el.type === "checkbox") { el.checked = el.name in names; }
      else if (el.name in names) { el.value = names[el.name]; }
      else if (el.tagName !== "SELECT") { el.value = ""; }
    });
    var kind = form.querySelector("input[name=kind]:checked");
    if (kind) { // what the kind hides stays hidden in the copy too (protocol-entry.js)
      var none = kind.hasAttribute("data-no-contract");
      form.querySelectorAll("[data-contract]").forEach(function (el) { el.hidden = none; });
    }
  }
  function kindOf(action, index) {
    var n = index === null || index === "" ? "" : Number(index) + 1;
    var template = words["kind_" + action] || words.kind_add;
    return say(template, { n: n });
  }

  // --- the simple checks that need no server ------------------------------------------------
  // A missing declarer is bad input the server would refuse: the form says so and keeps nothing.
  // Tricks that do not add up are a finding, not bad input: the deal is kept and sent (the
  // server stores it with its findings, never "fixed"); the phone says it beside the entry.
  function problems(form) {
    var found = [];
    if (!form.classList.contains("deal-form")) { return found; }
    var out = sittingOutProblem(form);
    if (out) { found.push(out); }
    var declarer = form.querySelector("select[name=declarer]");
    if (declarer && shown(declarer)) {
      var seats = Array.prototype.map.call(declarer.options, function (o) { return o.value; })
        .filter(function (v) { return v !== ""; });
      if (seats.indexOf(declarer.value) < 0) { found.push(words.check_declarer); }
    }
    return found;
  }
  function findings(form) {
    var found = [];
    if (!form.classList.contains("deal-form")) { return found; }
    var tricks = Array.prototype.filter.call(
      form.querySelectorAll("input[type=number][name^='tricks_']"), shown);
    var sum = 0, most = 0;
    tricks.forEach(function (el) {
      var max = parseInt(el.max, 10);
      if (max > most) { most = max; }
      if (el.value === "") { return; }
      var value = parseInt(el.value, 10);
      sum += value;
      if (max && value > max) { found.push(say(words.check_trick, { field: labelOf(el), max: max })); }
    });
    if (most && sum > most) { found.push(say(words.check_tricks, { sum: sum, max: most })); }
    return found;
  }
  function showProblems(form, found) {
    var old = form.querySelector("p.error.local-check");
    if (old) { old.remove(); }
    if (!found.length) { return; }
    var p = document.createElement("p");
    p.className = "error local-check";
    p.setAttribute("role", "alert");
    p.textContent = found.join(" ");
    form.insertBefore(p, form.firstChild);
  }

  // --- the panel -----------------------------------------------------------------------------
  // offline: the phone has no network, or the server did not answer the last send (the hall's
  // Wi-Fi up, the server out of reach) until one is answered
  var unreachable = false;
  function offline() { return navigator.onLine === false || unreachable; }
  function button(text, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.addEventListener("click", onClick);
    return b;
  }
  function stateText(entry) {
    switch (entry.state) {
      case "saved": return say(words.saved, { version: entry.version });
      case "sending": return words.sending;
      case "conflict": return words.conflict;
      case "refused": case "revoked": case "back": return words.refused;
      case "waiting": return words.waiting;
      default: return words.queued;
    }
  }
  var held = 0; // entries not saved yet, as last counted
  function clear(form) {
    form.reset();
    var kind = form.querySelector("input[name=kind]:checked");
    if (kind) { kind.dispatchEvent(new Event("change", { bubbles: true })); }
  }
  // At a table of four the dealer sits out (Kodeks 1996, 3.2.2; the pot family's "Giv"). The
  // page carries the turn as the server counts it (#dealing-turn: the seats in the order the
  // deal passes, who deals next, which saved deals passed it); the phone moves it over the
  // deals it holds — a deal added passes it on, the last deal deleted takes it back — and
  // marks in the form who deals and sits out. Where it cannot count (no turn in the page, a
  // deal deleted in the middle, an entry refused or in conflict) it says the one shown is
  // behind; the server decides the turn when the deals arrive.
  var turnTag = document.getElementById("dealing-turn");
  var turn = turnTag ? JSON.parse(turnTag.textContent) : null;
  function counted(found) { // the seat dealing the next deal after what the phone holds, or null
    if (!turn) { return null; }
    var passes = turn.passes.slice();
    var at = turn.order.indexOf(turn.next);
    var sure = at >= 0;
    found.forEach(function (e) {
      if (!sure) { return; }
      if (["saved", "queued", "sending", "waiting"].indexOf(e.state) < 0) {
        sure = e.action !== "add" && e.action !== "delete";
        return;
      }
      if (e.action === "add") { passes.push(true); at += 1; }
      if (e.action === "delete") {
        var index = null;
        e.fields.forEach(function (pair) { if (pair[0] === "index") { index = Number(pair[1]); } });
        if (index !== passes.length - 1) { sure = false; return; } // the deals after it keep theirs
        if (passes.pop()) { at -= 1; }
      }
    });
    var n = turn.order.length;
    return sure ? turn.order[((at % n) + n) % n] : null;
  }
  function markTurn(form, dealer) { // the form as the server renders it for this dealer
    var seat = String(dealer);
    var row = form.querySelector("tr[data-row='" + seat + "']");
    var note = form.querySelector("p.sitting-out");
    if (!row || !note) { return; }
    note.textContent = words.sits_out.replace("%(name)s", row.dataset.name);
    form.querySelectorAll("tr[data-row]").forEach(function (tr) {
      var out = tr.dataset.row === seat;
      tr.classList.toggle("sitting-out", out);
      tr.classList.toggle("muted", out);
    });
    form.querySelectorAll("[data-dealer]").forEach(function (el) { el.hidden = el.dataset.dealer !== seat; });
    form.querySelectorAll("[data-out]").forEach(function (el) { el.hidden = el.dataset.out !== seat; });
    form.querySelectorAll("[data-seat]").forEach(function (el) {
      // what was entered for him stays in sight, for the check to say (never dropped unsaid)
      var out = el.dataset.seat === seat && !(el.tagName === "OPTION" ? el.selected : el.value !== "");
      el.hidden = out;
      el.disabled = out;
    });
  }
  function sittingOut(found) {
    var form = document.getElementById("form");
    var shown = form && form.querySelector(".sitting-out");
    var note = document.getElementById("sitting-out-stale");
    var adding = form && form.querySelector("input[name=action][value=add]");
    var moved = found.some(function (e) {
      return e.state !== "saved" && (e.action === "add" || e.action === "delete");
    });
    var dealer = shown && adding ? counted(found) : null;
    if (dealer !== null) { markTurn(form, dealer); }
    if (!shown || !moved || dealer !== null) { if (note) { note.remove(); } return; }
    if (!note) {
      note = document.createElement("p");
      note.id = "sitting-out-stale";
      note.className = "notice";
      note.setAttribute("role", "status");
      note.textContent = words.sitting_out_stale;
      shown.parentNode.insertBefore(note, shown.nextSibling);
    }
  }
  // What is entered for the one who sits out is refused by the server: the phone says so
  // and keeps nothing (a Russian raspasy lets him take the talon's tricks: data-seat-game).
  function sittingOutProblem(form) {
    var note = form.querySelector("p.sitting-out");
    var row = form.querySelector("tr.sitting-out[data-row]");
    if (!note || !row || !shown(note)) { return null; }
    var seat = row.dataset.row;
    var none = form.querySelector("input[name=kind][data-no-contract]:checked");
    var entered = Array.prototype.some.call(form.querySelectorAll("[data-seat='" + seat + "']"), function (el) {
      if (el.disabled) { return false; }
      return el.tagName === "OPTION" ? el.selected && shown(el.parentNode) : el.value !== "" && shown(el);
    }) || (!none && Array.prototype.some.call(form.querySelectorAll("[data-seat-game='" + seat + "']"), function (el) {
      return el.value !== "" && shown(el);
    }));
    return entered ? say(words.check_sitting_out, { name: row.dataset.name }) : null;
  }
  function render() {
    return entries().then(function (found) {
      held = found.filter(function (e) { return e.state !== "saved"; }).length;
      list.textContent = "";
      var revoked = found.some(function (e) { return e.state === "revoked"; });
      if (revoked) { network.textContent = words.revoked; }
      else if (offline()) { network.textContent = words.offline; }
      else if (found.some(function (e) { return e.state !== "saved"; })) { network.textContent = words.online; }
      else { network.textContent = ""; }
      box.classList.toggle("offline", offline() || revoked);
      box.hidden = !found.length && !offline();
      sittingOut(found);
      var halted = false; // entries behind one that waits for the players' choice
      found.forEach(function (entry) {
        if (halted && entry.state === "queued") { entry = Object.assign({}, entry, { state: "waiting" }); }
        if (["conflict", "refused", "revoked", "back"].indexOf(entry.state) >= 0 && !alone(entry)) { halted = true; }
        var li = document.createElement("li");
        li.className = "entry " + entry.state;
        li.dataset.id = entry.id;
        var what = document.createElement("strong");
        what.textContent = entry.kind;
        li.appendChild(what);
        if (entry.summary) { li.appendChild(document.createTextNode(" " + entry.summary)); }
        var state = document.createElement("span");
        state.className = "state";
        state.textContent = stateText(entry);
        li.appendChild(document.createTextNode(" — "));
        li.appendChild(state);
        if (entry.checks && entry.checks.length && entry.state !== "saved") {
          var checked = document.createElement("p");
          checked.className = "check";
          checked.textContent = entry.checks.join(" ");
          li.appendChild(checked);
        }
        if (entry.state === "saved" && entry.summary_found) {
          var f = document.createElement("span");
          f.className = "findings";
          f.textContent = ": " + entry.summary_found + (entry.findings && entry.findings.length ? " (" + entry.findings.join("; ") + ")" : "");
          li.appendChild(f);
        }
        if (entry.state === "conflict") {
          var ask = document.createElement("div");
          ask.className = "both";
          ask.setAttribute("role", "alert");
          var p = document.createElement("p");
          p.textContent = words.conflict_ask;
          ask.appendChild(p);
          var theirs = document.createElement("div");
          theirs.innerHTML = entry.html || ""; // the server's own fragment: no script runs in it
          ask.appendChild(theirs);
          ask.appendChild(button(words.keep_mine, function () { keepMine(entry); }));
          ask.appendChild(button(words.discard_mine, discardMine));
          li.appendChild(ask);
        } else if (entry.state === "refused" || entry.state === "revoked" || entry.state === "back") {
          var why = document.createElement("p");
          why.className = "error";
          why.setAttribute("role", "alert");
          why.textContent = entry.message || "";
          li.appendChild(why);
          if ((entry.state === "refused" || entry.state === "back") && !entry.final && !alone(entry)) {
            li.appendChild(button(words.back_to_form, function () { backToForm(entry); }));
          }
          li.appendChild(button(words.discard_mine, discardMine));
        }
        list.appendChild(li);
      });
    });
  }

  // a player's confirmation (his own page): stored once whatever the resends, it waits for
  // nothing and holds nothing up; a refusal (a version no longer current) stays listed alone
  function alone(entry) { return entry.action === "confirm"; }

  // --- the answers to the players' choices ---------------------------------------------------
  function keepMine(entry) {
    entry.state = "queued";
    entry.base = entry.current_version === null || entry.current_version === undefined ? "" : String(entry.current_version);
    entry.html = "";
    put(entry).then(render).then(pump);
  }
  function discardMine() {
    entries().then(function (found) {
      return remove(found.filter(function (e) { return e.state !== "saved"; }).map(function (e) { return e.id; }));
    }).then(function () {
      if (!offline()) { goPage("#last"); } else { render(); }
    });
  }
  function backToForm(entry) {
    // the refused entry's fields back in its form, to correct and send again
    // the entries after it wait for it: sent again, it takes its place in the order
    var form = document.querySelector(entry.formSelector || "form.deal-form");
    entry.state = "back"; // kept, in its place, until the form is sent again
    put(entry).then(function () {
      if (form) {
        fill(form, entry.fields);
        var kind = form.querySelector("input[name=kind]:checked");
        if (kind) { kind.dispatchEvent(new Event("change", { bubbles: true })); }
        form.scrollIntoView();
      }
      return render();
    });
  }

  // --- sending, in order -----------------------------------------------------------------------
  function goPage(suffix) { // the server's page again: what it saved, with its findings
    if (suffix.charAt(0) === "#" && location.pathname === PAGE && !location.search) {
      location.hash = suffix;
      location.reload();
    } else {
      location.replace(PAGE + suffix);
    }
  }
  function token() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }
  function later(seconds) {
    if (retry) { clearTimeout(retry); }
    retry = setTimeout(function () { retry = null; pump(); }, seconds * 1000);
  }
  function sendOne(entry) {
    var body = new FormData();
    entry.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    body.set("based_on_version", entry.base === null || entry.base === undefined ? "" : entry.base);
    body.set("client_id", entry.id);
    body.set("csrfmiddlewaretoken", token());
    entry.state = "sending";
    return put(entry).then(render).then(function () {
      return fetch(SEND, { method: "POST", body: body, credentials: "same-origin",
                           headers: { "X-CSRFToken": token(), "Accept": "application/json" } });
    }).then(function (response) {
      if (response.status === 404) { return { state: "revoked" }; }
      if (response.status === 429 || response.status >= 500) { return { state: "later" }; }
      return response.json().catch(function () { return { state: "later" }; });
    }, function () {
      return { state: "network" }; // no answer: sent or not, the same id goes again
    }).then(function (answer) {
      unreachable = answer.state === "network";
      return settle(entry, answer);
    });
  }
  function settle(entry, answer) {
    if (answer.state === "saved") {
      entry.state = "saved";
      entry.version = answer.version;
      entry.summary_found = answer.summary || "";
      entry.findings = answer.findings || [];
      savedHere += 1;
      return entries().then(function (found) {
        var next = found.filter(function (e) { return e.after === entry.id; });
        next.forEach(function (e) { e.after = null; e.base = String(answer.version); });
        return Promise.all([entry].concat(next).map(put));
      }).then(function () { return "next"; });
    }
    if (answer.state === "conflict") {
      entry.state = "conflict";
      entry.message = answer.message;
      entry.html = answer.html;
      entry.current_version = answer.current_version;
      return put(entry).then(function () { return "stop"; });
    }
    if (answer.state === "refused") {
      entry.state = "refused";
      entry.message = answer.message;
      entry.final = Boolean(answer.final);
      if (alone(entry)) { return put(entry).then(function () { return "next"; }); }
      return put(entry).then(function () {
        if (!answer.final) { return "stop"; }
        return entries().then(function (found) { // the round closed: none will be taken
          var rest = found.filter(function (e) { return e.state === "queued" || e.state === "waiting"; });
          rest.forEach(function (e) { e.state = "refused"; e.message = answer.message; e.final = true; });
          return Promise.all(rest.map(put));
        }).then(function () { return "stop"; });
      });
    }
    if (answer.state === "revoked") {
      return entries().then(function (found) {
        var rest = found.filter(function (e) { return e.state !== "saved"; });
        rest.forEach(function (e) { e.state = "revoked"; e.message = words.revoked; });
        return Promise.all(rest.map(put));
      }).then(function () { return "stop"; });
    }
    entry.state = "queued";
    return put(entry).then(function () { return answer.state === "network" ? "offline" : "later"; });
  }
  function pump() {
    if (sending) { return Promise.resolve(); }
    sending = true;
    var lastForm = null;
    function step() {
      return entries().then(function (found) {
        var pending = found.filter(function (e) {
          return e.state !== "saved" && !(alone(e) && e.state === "refused");
        });
        if (!pending.length) { return "done"; }
        var head = pending[0];
        if (head.state !== "queued" && head.state !== "sending" && head.state !== "waiting") { return "stop"; }
        if (head.after) { // the one before it: saved meanwhile, or gone back to the form
          var before = found.filter(function (e) { return e.id === head.after; })[0];
          if (!before || before.state !== "saved") { return "stop"; }
          head.after = null;
          head.base = String(before.version);
        }
        if (navigator.onLine === false) { return "offline"; }
        lastForm = head;
        return sendOne(head).then(function (outcome) { return outcome === "next" ? step() : outcome; });
      });
    }
    return step().then(function (outcome) {
      sending = false;
      if (outcome === "done" && savedHere) {
        return entries().then(function (found) { // a refusal stays listed, with its reason
          return remove(found.filter(function (e) { return e.state === "saved"; }).map(function (e) { return e.id; }));
        }).then(function () {
          var sheet = lastForm && lastForm.action === "sheet";
          goPage(sheet ? "?sheet_row=" + encodeURIComponent(lastForm.sheetRow || "") + "#sheet" : "#last");
        });
      }
      if (outcome === "later") { later(20); }
      if (outcome === "offline") { later(3); }
      return render();
    }, function () { sending = false; later(10); return render(); });
  }

  // --- the page's forms go through the outbox -------------------------------------------------
  function selectorOf(form) {
    if (form.classList.contains("deal-form")) { return "form.deal-form"; }
    if (form.classList.contains("sheet-form")) { return "form.sheet-form"; }
    if (form.classList.contains("ending")) { return "form.ending"; }
    if (form.classList.contains("confirm")) { return "form.confirm"; }
    return "form.delete-deal";
  }
  function watch(form) {
    if (!form.classList.contains("deal-form") && !form.classList.contains("sheet-form") &&
        !form.classList.contains("ending") && !form.classList.contains("confirm")) {
      form.classList.add("delete-deal");
    }
    form.addEventListener("submit", function (event) {
      var found = problems(form);
      showProblems(form, found);
      if (found.length) { event.preventDefault(); return; }
      if (!offline() && !held) {
        // online with nothing held: the form goes as it always did, with an id; should the
        // network drop meanwhile, the service worker keeps it in the outbox under that id
        var id = form.querySelector("input[name=client_id]");
        if (!id) {
          id = document.createElement("input");
          id.type = "hidden";
          id.name = "client_id";
          form.appendChild(id);
        }
        id.value = newId();
        return;
      }
      event.preventDefault();
      var data = new FormData(form, event.submitter || undefined);
      var fields = [];
      data.forEach(function (value, name) {
        if (name !== "csrfmiddlewaretoken" && name !== "client_id" && typeof value === "string") {
          fields.push([name, value]);
        }
      });
      var action = data.get("action") || "add";
      var made = {
        id: newId(),
        page: PAGE,
        created: Date.now() * 1000 + (counter++ % 1000),
        action: action,
        kind: kindOf(action, data.get("index")),
        summary: form.dataset.summary || describe(form),
        checks: findings(form),
        fields: fields,
        base: data.get("based_on_version") || "",
        formSelector: selectorOf(form),
        sheetRow: data.get("sheet_row") || "",
      };
      clear(form); // kept on the phone: the form is free at once for the next deal
      closeCorrection();
      held += 1;
      entries().then(function (all) {
        var pending = all.filter(function (e) { return e.state !== "saved"; });
        var back = pending.filter(function (e) {
          return e.state === "back" && e.formSelector === made.formSelector;
        })[0];
        if (back) { // in the place of the entry that went back to the form
          remove([back.id]);
          made.created = back.created;
          made.after = back.after;
          made.base = back.base;
          made.state = "queued";
          var next = pending.filter(function (e) { return e.after === back.id; });
          next.forEach(function (e) { e.after = made.id; });
          return Promise.all([made].concat(next).map(put)).then(render).then(pump);
        }
        // a player's confirmation stands alone (stored once, whatever came before it)
        var last = pending.length && action !== "confirm" ? pending[pending.length - 1] : null;
        made.after = last ? last.id : null;
        made.state = last && last.state !== "queued" && last.state !== "sending" && last.state !== "waiting" ? "waiting" : "queued";
        return put(made).then(render).then(pump);
      });
    });
  }
  document.querySelectorAll(".protocol-entry form[method=post], form[method=post].confirm").forEach(watch);

  // --- a correction offline --------------------------------------------------------------------
  // "Correct" opens the server's form for the deal (?edit=N). Offline, or while the phone holds
  // entries, the page's own deal form becomes that correction instead: filled from the deal's
  // values the page carries (#corrections, the protocol as last seen), with the deal's dealer
  // marked, and a form to delete the deal. Sent, it goes to the outbox like a deal, in order,
  // with the version it builds on: a protocol changed meanwhile is a conflict, shown.
  var correctionsTag = document.getElementById("corrections");
  var corrections = correctionsTag ? JSON.parse(correctionsTag.textContent) : [];
  var added = null; // what the page had before a correction opened in its form
  function openCorrection(index) {
    var form = document.querySelector("form.deal-form");
    var values = corrections[index];
    var action = form && form.querySelector("input[name=action]");
    if (!values || !action || (action.value !== "add" && !added)) { return false; }
    closeCorrection();
    var heading = form.querySelector("h2");
    var submit = form.querySelector("button[type=submit]");
    added = { heading: heading.textContent, submit: submit.textContent, extra: [] };
    action.value = "replace";
    var number = document.createElement("input");
    number.type = "hidden";
    number.name = "index";
    number.value = String(index);
    form.appendChild(number);
    added.extra.push(number);
    heading.textContent = words.correct_deal + " " + (index + 1);
    submit.textContent = words.save_correction;
    var cancel = button(words.cancel, function () { clear(form); closeCorrection(); render(); });
    submit.parentNode.insertBefore(cancel, submit.nextSibling);
    added.extra.push(cancel);
    var remove = document.createElement("form");
    remove.method = "post";
    remove.className = "inline delete-deal";
    [["csrfmiddlewaretoken", token()], ["based_on_version", form.elements.based_on_version.value],
     ["action", "delete"], ["index", String(index)]].forEach(function (pair) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = pair[0];
      input.value = pair[1];
      remove.appendChild(input);
    });
    var go = document.createElement("button");
    go.type = "submit";
    go.textContent = words.delete_deal;
    remove.appendChild(go);
    form.parentNode.insertBefore(remove, form.nextSibling);
    watch(remove);
    added.extra.push(remove);
    form.reset(); // the blank form, then the deal's values
    fill(form, values.fields);
    var kind = form.querySelector("input[name=kind]:checked");
    if (kind) { kind.dispatchEvent(new Event("change", { bubbles: true })); }
    if (values.sitting_out !== null && values.sitting_out !== undefined) { markTurn(form, values.sitting_out); }
    form.scrollIntoView();
    return true;
  }
  function closeCorrection() {
    if (!added) { return; }
    var form = document.querySelector("form.deal-form");
    form.querySelector("input[name=action]").value = "add";
    form.querySelector("h2").textContent = added.heading;
    form.querySelector("button[type=submit]").textContent = added.submit;
    added.extra.forEach(function (el) { el.remove(); });
    added = null;
  }
  document.querySelectorAll(".protocol-entry a.edit").forEach(function (link) {
    link.addEventListener("click", function (event) {
      var index = Number(new URL(link.href).searchParams.get("edit"));
      if ((offline() || held) && openCorrection(index)) { event.preventDefault(); }
    });
  });

  window.addEventListener("online", function () { render().then(pump); });
  window.addEventListener("offline", render);
  entries().then(function (found) { // a send the page was closed in goes again
    var stuck = found.filter(function (e) { return e.state === "sending"; });
    stuck.forEach(function (e) { e.state = "queued"; });
    // an entry the service worker kept (the form sent while the network dropped) has no words
    found.forEach(function (e) {
      if (e.kind) { return; }
      var index = null, protocol = null;
      e.fields.forEach(function (pair) {
        if (pair[0] === "index") { index = pair[1]; }
        if (pair[0] === "protocol") { protocol = pair[1]; }
      });
      e.kind = kindOf(e.action, index);
      var form = document.querySelector(e.formSelector);
      if (alone(e)) { // the confirmation's own form names its table and version
        var mark = document.querySelector("form.confirm input[name=protocol][value='" + protocol + "']");
        form = mark ? mark.form : null;
      }
      if (form) { e.summary = form.dataset.summary || describeFields(form, e.fields); }
      stuck.push(e);
    });
    return Promise.all(stuck.map(put));
  }).then(render).then(function () {
    // "correct" followed while the server was out of reach: the service worker answered with
    // the page it keeps, whose form adds a deal; it opens as the correction asked for
    var edit = new URLSearchParams(location.search).get("edit");
    if (edit !== null && /^\d+$/.test(edit)) { openCorrection(Number(edit)); }
    return pump();
  });
}());
