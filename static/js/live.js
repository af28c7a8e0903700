// Live screens by push (muscore.live): the live part of a page (the board's #board-live,
// a TV's [data-tv-live], any [data-poll] with an hx-get) hears its changes on one
// server-sent events stream and swaps the fragment the event carries, as its poll would.
// The poll stays as it was and runs by itself whenever the stream is not open (no
// EventSource, a proxy that buffers, a server that refuses, offline and back), plus one
// safety poll every SAFETY_MS while it is. No game rule here: the server draws everything.
(function () {
  "use strict";
  var SAFETY_MS = 30000;
  // A stream that opened but said nothing (not even its hello) is buffered by a proxy.
  var SILENT_MS = 10000;
  // After a refusal (429, 503) or too many drops, polling alone for this long.
  var BACKOFF_MS = 60000;

  var meta = document.querySelector('meta[name="muscore-stream"]');
  var base = meta && meta.getAttribute("content");
  if (!base || !window.EventSource) return;

  var streams = {};

  function liveParts() {
    return Array.prototype.slice.call(document.querySelectorAll("[data-poll][hx-get][id], [data-tv-live][hx-get][id]"));
  }

  function bare(etag) { return (etag || "").replace(/^W\//, ""); }

  // This visitor's CSRF token: the secret of Django's CSRF cookie, which its check takes
  // as the form's token (the page's HTML carries none outside its own forms, so that it
  // is the same for every visitor and answers 304).
  function token() {
    var found = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return found ? decodeURIComponent(found[1]) : "";
  }

  function open(id) {
    var elt = document.getElementById(id);
    if (!elt || streams[id]) return;
    var url = base + "?u=" + encodeURIComponent(elt.getAttribute("hx-get")) +
      "&lang=" + encodeURIComponent(document.documentElement.lang || "es") +
      "&etag=" + encodeURIComponent(elt.getAttribute("data-etag") || "");
    var s = { source: new EventSource(url), heard: 0, lastPoll: Date.now(), drops: 0 };
    streams[id] = s;
    document.documentElement.setAttribute("data-stream", "connecting");
    var silent = window.setTimeout(function () { if (!s.heard) drop(id, BACKOFF_MS); }, SILENT_MS);
    s.source.addEventListener("hello", function () {
      s.heard = Date.now();
      s.drops = 0;
      window.clearTimeout(silent);
      document.documentElement.setAttribute("data-stream", "open");
    });
    s.source.addEventListener("change", function (event) {
      s.heard = Date.now();
      var data;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      apply(id, data);
    });
    s.source.addEventListener("bye", function () {
      // The server restarts: the EventSource comes back by itself (to another server
      // behind the proxy) after the retry it was given; the poll covers the gap.
      s.heard = 0;
      document.documentElement.setAttribute("data-stream", "connecting");
    });
    s.source.addEventListener("gone", function () { drop(id, BACKOFF_MS); });
    s.source.addEventListener("error", function () {
      s.heard = 0;
      if (s.source.readyState === EventSource.CLOSED) {
        drop(id, BACKOFF_MS);  // refused (4xx, 5xx): polling, then a try later
      } else if (++s.drops > 5) {
        drop(id, BACKOFF_MS);
      } else {
        document.documentElement.setAttribute("data-stream", "connecting");
      }
    });
  }

  function drop(id, retryMs) {
    var s = streams[id];
    if (!s) return;
    s.source.close();
    delete streams[id];
    document.documentElement.setAttribute("data-stream", "polling");
    window.setTimeout(function () { open(id); }, retryMs);
  }

  // A table's revision only grows: a fragment of an older one is a copy this page is past.
  function older(elt, html) {
    var mine = Number(elt.getAttribute("data-revision"));
    var found = /data-revision="(\d+)"/.exec(html);
    return !!(mine && found && Number(found[1]) < mine);
  }

  // The event's fragment in place of the live part, unless the page holds that copy or a
  // newer one: the saver's board, answered by its save, is newer than what its stream's
  // server holds until the save is published (issue 38.4: it swapped the old score back).
  function apply(id, data) {
    var elt = document.getElementById(id);
    if (!elt || !data || !data.html || bare(data.etag) === bare(elt.getAttribute("data-etag"))) return;
    if (older(elt, data.html)) return;
    var info = { elt: elt, target: elt, live: "stream" };
    window.htmx.swap(elt, data.html, { swapStyle: "outerHTML" }, { eventInfo: info });
    var now = document.getElementById(id);
    if (!now) return;
    // The fragment was drawn once for every phone: its forms carry this page's own token.
    var mine = token();
    if (mine) {
      now.querySelectorAll('input[name="csrfmiddlewaretoken"]').forEach(function (input) { input.value = mine; });
    }
    now.setAttribute("data-pushed", String(data.published || ""));
  }

  // While the stream is open, the poll's timer asks nothing (one safety poll every
  // SAFETY_MS); a poll asked for by the page itself (htmx.trigger "refresh") still goes.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    var s = elt && elt.id && streams[elt.id];
    if (!s || !s.heard || (event.detail.requestConfig && event.detail.requestConfig.triggeringEvent)) return;
    if (Date.now() - s.lastPoll < SAFETY_MS) {
      event.preventDefault();
    } else {
      s.lastPoll = Date.now();
    }
  });

  function start() { liveParts().forEach(function (elt) { open(elt.id); }); }
  document.addEventListener("DOMContentLoaded", start);
  window.addEventListener("online", start);
  // A page that gets a live part later (an htmx swap) opens its stream then.
  document.addEventListener("htmx:load", function () { window.setTimeout(start, 0); });
})();
