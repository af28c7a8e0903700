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
// The static files' prefix and the stylesheet as collectstatic named them (whitenoise's
// manifest: css/muscore.<hash>.css in production): the offline page links the file the
// cache holds, not css/muscore.css, which production does not serve (issue 30.3).
var STATIC_PREFIX = "{{ static_prefix|escapejs }}";
var STYLESHEET = "{{ stylesheet|escapejs }}";
// The pages kept, network first and this phone's copy without signal: the board (view or
// edit link), its history and the hand entry; the start page of the installed app, the
// new table's setup, the clubs, the calculator, the lector and the rules with each of
// their sections (issue 19.10); a club's page, its competitions (their standings), its
// TV, its players' levels and leaders, as this phone last opened them (issue 30.3).
// Issue 38.8: and every page of a club's league and of a championship a phone opened (a
// round, a pair, a match, a player; the championship, a phase, the hall's TV, a venue, a
// pair's path, a player's). At each language's address too (/en/, /eu/, /fr/:
// muscore.addresses).
var PAGE = new RegExp("^/((?:{{ prefixes|escapejs }})/)?(" + [
  "t/[A-Za-z0-9_-]+/(k/[A-Za-z0-9_-]+/(mano|historial)?|historial)?",
  "nueva", "clubs/", "calculadora/", "lector/", "reglas/([a-z0-9-]+/)?", "nivel/",
  "club/[A-Za-z0-9_-]+/(liga/[0-9]+/(jornadas|jornada/[0-9]+/|pareja/[0-9]+/|partida/[0-9]+/)?" +
    "|tv/|niveles/|lideres/|jugador/[0-9]+/)?",
  "campeonatos/([0-9]+/(fases/[0-9]+/(tv/)?|sedes/[0-9]+/|parejas/[0-9]+/|jugador/)?)?",
].join("|") + ")?$");
// A table's pages are kept under their path alone (?deshecha=3 and friends are the same
// board); any other page under its query too (a championship's player is ?nombre=...).
var TABLE_PAGE = new RegExp("^/((?:{{ prefixes|escapejs }})/)?t/");
// The pages kept: at most this many, the ones opened longest ago dropped first (the cache
// keeps its entries in the order they were put: a page kept again moves to the end).
var MAX_PAGES = 80;
// Kept at install, so they open without signal even if never visited.
var PAGES_AT_INSTALL = {{ pages_at_install|safe }};
// The language of the last page the phone was shown (its Content-Language): the offline
// page speaks it. Kept in the pages' cache under this key, as the worker may be stopped.
var LANGUAGE_KEY = "/__muscore-language";
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

function phoneLanguage() {
  var wanted = (self.navigator && self.navigator.languages) || [];
  for (var i = 0; i < wanted.length; i++) {
    var code = String(wanted[i]).slice(0, 2).toLowerCase();
    if (OFFLINE[code]) return code;
  }
  return "es";
}

function rememberLanguage(response) {
  var code = (response.headers.get("Content-Language") || "").slice(0, 2).toLowerCase();
  if (!OFFLINE[code]) return;
  caches.open(PAGES_CACHE).then(function (cache) {
    return cache.put(self.location.origin + LANGUAGE_KEY, new Response(code));
  }).catch(function () {});
}

// The page's language (the last one the site spoke to this phone), else the phone's.
function offlineLanguage() {
  return caches.open(PAGES_CACHE)
    .then(function (cache) { return cache.match(self.location.origin + LANGUAGE_KEY); })
    .then(function (hit) { return hit ? hit.text() : ""; })
    .then(function (code) { return OFFLINE[code] ? code : phoneLanguage(); })
    .catch(function () { return phoneLanguage(); });
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, function (c) {
    return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
  });
}

// The site's own page, styled by its stylesheet (kept at install), not the browser's error.
function offlinePage() {
  return offlineLanguage().then(function (code) {
    var words = OFFLINE[code];
    return new Response(
      "<!doctype html><html lang='" + code + "'><head><meta charset=utf-8>" +
      "<meta name=viewport content='width=device-width, initial-scale=1'>" +
      "<meta name=color-scheme content='dark light'>" +
      "<title>" + escapeHtml(words.title) + " · muscore</title>" +
      "<link rel=stylesheet href='" + STYLESHEET + "'></head>" +
      "<body><header class=top><a class=brand href='/'>muscore</a></header>" +
      "<main data-offline-page><h1>" + escapeHtml(words.title) + "</h1><p>" + escapeHtml(words.text) +
      "</p><p><a class='btn btn-primary btn-big' href='/'>" + escapeHtml(words.home) + "</a></p></main></body></html>",
      { status: 503, headers: { "Content-Type": "text/html; charset=utf-8", "Retry-After": "30" } }
    );
  });
}

function pageKey(url) {
  return url.origin + url.pathname + (TABLE_PAGE.test(url.pathname) ? "" : url.search);
}

// The oldest pages beyond MAX_PAGES go; the language and the pages kept at install stay.
function prune(cache) {
  var kept = {};
  kept[self.location.origin + LANGUAGE_KEY] = true;
  PAGES_AT_INSTALL.forEach(function (path) { kept[self.location.origin + path] = true; });
  return cache.keys().then(function (requests) {
    var pages = requests.filter(function (request) { return !kept[request.url]; });
    var extra = pages.length - MAX_PAGES;
    return Promise.all(pages.slice(0, Math.max(0, extra)).map(function (request) {
      return cache.delete(request);
    }));
  });
}

function page(event, url) {
  var key = pageKey(url);
  return fetch(event.request).then(function (response) {
    if (response.ok && !response.redirected) {
      var copy = response.clone();
      caches.open(PAGES_CACHE).then(function (cache) {
        // Put again, it moves to the end: delete first, as not every browser moves it.
        return cache.delete(key).then(function () { return cache.put(key, copy); })
          .then(function () { return prune(cache); });
      });
    }
    rememberLanguage(response);
    return response;
  }).catch(function () {
    return caches.open(PAGES_CACHE)
      .then(function (cache) { return cache.match(key); })
      .then(function (hit) { return hit || offlinePage(); });
  });
}

// A static file: the copy kept (its name changes with its content in production), else
// the network, kept for next time (a page kept may need a file the list above lacks).
function staticFile(request) {
  return caches.match(request).then(function (hit) {
    if (hit) return hit;
    return fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(STATIC_CACHE).then(function (cache) { return cache.put(request, copy); });
      }
      return response;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && PAGE.test(url.pathname)) {
    event.respondWith(page(event, url));
  } else if (request.mode === "navigate") {
    // Any other page: the network, and without signal the site's own offline page.
    event.respondWith(fetch(request).catch(offlinePage));
  } else if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(staticFile(request));
  }
  // Everything else (the live board's polls included) goes to the network as usual,
  // so a failed poll tells the page it is offline.
});
