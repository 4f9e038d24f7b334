{% autoescape off %}// The service worker of one table's page, or of one player's protocols page (issue 42;
// tournaments/views/protocols/offline.py).
// Its scope is the page's folder (/t/<key>/, /p/<key>/protocols/): it sees that page's
// requests only. It keeps the page itself (the last answer the network gave, without a query)
// and Pulka's own script and stylesheet the page needs, so the phone reopens the page with no
// network. Nothing else is kept: another table's or player's page, an organiser's page; the
// sends (POST) always go to the network.
"use strict";
var PAGE = {{ page }};
var ASSETS = {{ assets }};
var CACHE = {{ cache }};

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(ASSETS.concat([PAGE]));  // the page the phone opened, at once
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

function isPage(url) {
  return url.origin === self.location.origin && url.pathname === PAGE;
}

// The outbox of the page's script (tournaments/static/tournaments/table-offline.js), for a form
// sent the usual way whose answer never came: the entry goes in under the form's own id.
function keep(data) {
  return new Promise(function (resolve, reject) {
    var open = indexedDB.open("pulka-outbox", 1);
    open.onupgradeneeded = function () {
      open.result.createObjectStore("entries", { keyPath: "id" }).createIndex("page", "page");
    };
    open.onerror = function () { reject(open.error); };
    open.onsuccess = function () {
      var fields = [];
      data.forEach(function (value, name) {
        if (name !== "csrfmiddlewaretoken" && name !== "client_id" && typeof value === "string") {
          fields.push([name, value]);
        }
      });
      var action = data.get("action") || "add";
      var forms = { add: "form.deal-form", replace: "form.deal-form", sheet: "form.sheet-form",
                    ending: "form.ending", "delete": "form.delete-deal", confirm: "form.confirm" };
      var t = open.result.transaction("entries", "readwrite");
      t.objectStore("entries").put({
        id: data.get("client_id"), page: PAGE, created: Date.now() * 1000, action: action,
        kind: "", summary: "", fields: fields, base: data.get("based_on_version") || "",
        after: null, state: "queued", formSelector: forms[action] || "form.deal-form",
        sheetRow: data.get("sheet_row") || ""
      });
      t.oncomplete = function () { resolve(); };
      t.onerror = function () { reject(t.error); };
    };
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.method === "POST" && request.mode === "navigate" && isPage(url)) {
    var copy = request.clone();
    event.respondWith(fetch(request).catch(function () {
      return copy.formData().then(function (data) {
        if (!data.get("client_id")) { return Response.error(); }
        return keep(data).then(function () {
          return caches.open(CACHE).then(function (cache) { return cache.match(PAGE); });
        }).then(function (kept) { return kept || Response.error(); });
      });
    }));
    return;
  }
  if (request.method !== "GET") { return; }
  if (isPage(url)) {
    // the network first: the page as the server has it now; the last copy when offline
    event.respondWith(fetch(request).then(function (response) {
      if (response.status === 200 && !url.search && !response.redirected) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { return cache.put(PAGE, copy); });
      } else if (response.status === 404) {  // the key was revoked: forget the page
        caches.open(CACHE).then(function (cache) { return cache.delete(PAGE); });
      }
      return response;
    }).catch(function () {
      return caches.open(CACHE).then(function (cache) { return cache.match(PAGE); })
        .then(function (kept) { return kept || Response.error(); });
    }));
    return;
  }
  if (ASSETS.indexOf(url.pathname) >= 0) {
    event.respondWith(caches.open(CACHE).then(function (cache) {
      return fetch(request).then(function (response) {
        if (response.status === 200) { cache.put(url.pathname, response.clone()); }
        return response;
      }).catch(function () {
        return cache.match(url.pathname).then(function (kept) { return kept || Response.error(); });
      });
    }));
  }
});
{% endautoescape %}
