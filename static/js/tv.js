// The bar's screen (templates/clubs/tv.html): shows one panel of the live part at a
// time (the round's tables, the standings, the latest results), turning every few
// seconds, and keeps its place when a poll brings a new live part. Like the board
// (muscore.js), an unchanged poll (304, or the same ETag) swaps nothing, and a hidden
// tab does not poll. No library: htmx polls, this only shows and hides.
(function () {
  "use strict";
  var TURN_MS = 12000;
  var current = "";
  var timer = null;

  function root() { return document.querySelector("[data-tv-live]"); }

  function panels() {
    var live = root();
    return live ? Array.prototype.slice.call(live.querySelectorAll("[data-panel]")) : [];
  }

  function show(name) {
    var all = panels();
    if (!all.length) return;
    var found = all.filter(function (p) { return p.getAttribute("data-panel") === name; })[0] || all[0];
    current = found.getAttribute("data-panel");
    all.forEach(function (p) { p.classList.toggle("is-shown", p === found); });
    var dots = root().querySelector("[data-tv-dots]");
    if (!dots) return;
    if (dots.children.length !== all.length) {
      dots.textContent = "";
      all.forEach(function (p) {
        var b = document.createElement("button");
        b.type = "button";
        b.textContent = p.getAttribute("data-title") || p.getAttribute("data-panel");
        b.setAttribute("data-show", p.getAttribute("data-panel"));
        dots.appendChild(b);
      });
    }
    Array.prototype.forEach.call(dots.children, function (b) {
      b.setAttribute("aria-current", b.getAttribute("data-show") === current ? "true" : "false");
    });
  }

  function next() {
    var all = panels();
    if (!all.length) return;
    var names = all.map(function (p) { return p.getAttribute("data-panel"); });
    show(names[(names.indexOf(current) + 1) % names.length]);
  }

  // Paused by the button (WCAG 2.2.2: what moves by itself can be stopped): the screen
  // stays on its panel, polls go on, until the button is pressed again.
  // Under prefers-reduced-motion the screen starts paused: it turns only when asked.
  var paused = !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

  function syncPause() {
    var button = document.querySelector("[data-tv-pause]");
    if (!button) return;
    button.setAttribute("aria-pressed", paused ? "true" : "false");
    button.textContent = button.getAttribute(paused ? "data-label-play" : "data-label-pause");
  }

  function restart() {
    if (timer) window.clearInterval(timer);
    timer = paused ? null : window.setInterval(next, TURN_MS);
  }

  document.documentElement.classList.add("js-tv");
  document.addEventListener("DOMContentLoaded", function () { show(current); syncPause(); restart(); });
  // A tap on a panel's name (a laptop) shows it and starts the turn again from there.
  document.addEventListener("click", function (event) {
    var pause = event.target.closest && event.target.closest("[data-tv-pause]");
    if (pause) {
      paused = !paused;
      syncPause();
      restart();
      return;
    }
    var b = event.target.closest && event.target.closest("[data-show]");
    if (!b) return;
    show(b.getAttribute("data-show"));
    restart();
  });
  document.addEventListener("keydown", function (event) {
    // Space on a focused button is that button's click (the pause), not a turn.
    if (event.key === " " && event.target.closest && event.target.closest("button")) return;
    if (event.key === "ArrowRight" || event.key === " ") { next(); restart(); }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.hasAttribute("data-tv-live") && document.hidden) event.preventDefault();
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var elt = event.detail.elt;
    if (!elt.hasAttribute("data-tv-live")) return;
    var xhr = event.detail.xhr;
    // Compressed answers carry a weak tag (W/"..."): GZipMiddleware changes the bytes, not the page.
    var etag = (xhr.getResponseHeader("ETag") || "").replace(/^W\//, "");
    if (xhr.status === 304 || (etag && etag === elt.getAttribute("data-etag"))) {
      event.detail.shouldSwap = false;
    }
  });
  // The new live part keeps the panel that was showing.
  document.addEventListener("htmx:afterSettle", function () { show(current); });
  document.addEventListener("htmx:afterSwap", function () { show(current); syncPause(); });
})();
