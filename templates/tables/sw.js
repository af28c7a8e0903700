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
// The board (view or edit link) and the hand entry: the pages a table needs offline.
var PAGE = /^\/t\/[A-Za-z0-9_-]+\/(k\/[A-Za-z0-9_-]+\/(mano)?)?$/;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC_CACHE)
      .then(function (cache) { return cache.addAll(PRECACHE); })
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

function offlinePage() {
  return new Response(
    "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
    "<title>muscore</title><p>Sin conexión. / No connection.</p>",
    { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } }
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
