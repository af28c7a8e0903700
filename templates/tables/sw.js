// muscore's service worker (served at /sw.js by muscore.tables.views.service_worker).
// A board opens without signal showing the last score the phone saw: board and hand
// pages go to the network first and fall back to the copy kept here; static files
// come from the cache. Writes are never touched: a hand entered offline is queued by
// static/js/muscore.js and sent, with its client id, when the signal is back.
"use strict";

var RELEASE = "{{ release|escapejs }}";
var STATIC_CACHE = "muscore-static-" + RELEASE;
var PAGES_CACHE = "muscore-pages"; // also written by muscore.js (the live board's last state)
var PRECACHE = {{ precache|safe }};
var STATIC_PREFIX = PRECACHE.length ? PRECACHE[0].replace(/css\/.*$/, "") : "/static/";
// The board (view or edit link), its history and the hand entry: the pages a table needs
// offline; and the pages that need no table: the start page of the installed app, the
// calculator, the lector and the rules (issue 19.10).
var PAGE = /^\/(t\/[A-Za-z0-9_-]+\/(k\/[A-Za-z0-9_-]+\/(mano|historial)?|historial)?|calculadora\/|lector\/|reglas\/([a-z0-9-]+\/)?)?$/;
// Kept at install, so they open without signal even if never visited.
var PAGES_AT_INSTALL = ["/", "/calculadora/", "/lector/", "/reglas/"];
// A page this phone never kept, without signal: the same words in each language of the
// site, the phone's own language first (the worker has no cookie to read).
var OFFLINE = {
  {% for code, words in offline_words.items %}"{{ code }}": {title: "{{ words.title|escapejs }}", text: "{{ words.text|escapejs }}", home: "{{ words.home|escapejs }}"}{% if not forloop.last %},
  {% endif %}{% endfor %}
};

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC_CACHE)
      .then(function (cache) { return cache.addAll(PRECACHE); })
      .then(function () {
        // The pages are a bonus: a page that does not come now comes on its first visit.
        return caches.open(PAGES_CACHE).then(function (cache) {
          return Promise.all(PAGES_AT_INSTALL.map(function (path) {
            return fetch(path, { credentials: "same-origin" }).then(function (response) {
              if (response.ok && !response.redirected) return cache.put(self.location.origin + path, response);
            }).catch(function () {});
          }));
        });
      })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return key.indexOf("muscore-static-") === 0 && key !== STATIC_CACHE;
      }).map(function (key) { return caches.delete(key); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function offlineLanguage() {
  var wanted = (self.navigator && self.navigator.languages) || [];
  for (var i = 0; i < wanted.length; i++) {
    var code = String(wanted[i]).slice(0, 2).toLowerCase();
    if (OFFLINE[code]) return code;
  }
  return "es";
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, function (c) {
    return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
  });
}

// The site's own page, styled by its stylesheet (kept at install), not the browser's error.
function offlinePage() {
  var code = offlineLanguage();
  var words = OFFLINE[code];
  return new Response(
    "<!doctype html><html lang='" + code + "'><head><meta charset=utf-8>" +
    "<meta name=viewport content='width=device-width, initial-scale=1'>" +
    "<meta name=color-scheme content='dark light'>" +
    "<title>" + escapeHtml(words.title) + " · muscore</title>" +
    "<link rel=stylesheet href='" + STATIC_PREFIX + "css/muscore.css'></head>" +
    "<body><header class=top><a class=brand href='/'>muscore</a></header>" +
    "<main data-offline-page><h1>" + escapeHtml(words.title) + "</h1><p>" + escapeHtml(words.text) +
    "</p><p><a class='btn btn-primary btn-big' href='/'>" + escapeHtml(words.home) + "</a></p></main></body></html>",
    { status: 503, headers: { "Content-Type": "text/html; charset=utf-8", "Retry-After": "30" } }
  );
}

function page(event, url) {
  // Kept under the path alone: ?deshecha=3 and friends are the same board.
  var key = url.origin + url.pathname;
  return fetch(event.request).then(function (response) {
    if (response.ok && !response.redirected) {
      var copy = response.clone();
      caches.open(PAGES_CACHE).then(function (cache) { return cache.put(key, copy); });
    }
    return response;
  }).catch(function () {
    return caches.open(PAGES_CACHE)
      .then(function (cache) { return cache.match(key); })
      .then(function (hit) { return hit || offlinePage(); });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && PAGE.test(url.pathname)) {
    event.respondWith(page(event, url));
  } else if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(caches.match(request).then(function (hit) {
      return hit || fetch(request);
    }));
  }
  // Everything else (the live board's polls included) goes to the network as usual,
  // so a failed poll tells the page it is offline.
});
