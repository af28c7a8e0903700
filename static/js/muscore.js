// muscore's small enhancements. Everything works without this file: it adds the
// card keypad, hides what the cards already answer, and marks the page busy while
// htmx talks to the server (the browser tests wait on that mark).
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function isPoll(elt) {
    return !!(elt && elt.hasAttribute && elt.hasAttribute("data-poll"));
  }

  // The busy mark is for what a thumb did; the board's background poll does not count.
  var pending = 0;
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (isPoll(event.detail.elt)) {
      // A phone in a pocket does not poll; it catches up when shown again.
      if (document.hidden) event.preventDefault();
      return;
    }
    pending += 1;
    document.body.setAttribute("data-busy", "1");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (isPoll(event.detail.elt)) return;
    pending = Math.max(0, pending - 1);
    if (!pending) document.body.removeAttribute("data-busy");
  });

  // The live board (templates/tables/board.html, #board-live). The browser keeps the
  // last answer and revalidates it with If-None-Match; an unchanged board comes back as
  // 304, which the browser hands over as its stored copy with the same ETag: nothing to
  // swap. A bare 304 (should a browser pass one through) must not blank the board.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var elt = event.detail.elt;
    if (!isPoll(elt)) return;
    var xhr = event.detail.xhr;
    // Compressed answers carry a weak tag (W/"..."): GZipMiddleware changes the bytes, not the page.
    var etag = (xhr.getResponseHeader("ETag") || "").replace(/^W\//, "");
    if (xhr.status === 304 || (etag && etag === elt.getAttribute("data-etag"))) {
      event.detail.shouldSwap = false;
    }
  });
  // The hand entry answers 400 (what is wrong) or 409 (another phone got there first)
  // with the form to show: htmx 2 leaves 4xx unswapped unless told.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    var target = event.detail.target;
    if ((status === 400 || status === 409) && target && target.id === "live") {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  // Under DEBUG (./scripts/run), django-htmx's debug script writes any 400 answer over the
  // whole document, from a listener on document. The answers this page shows itself (a
  // refused or conflicting save, a tap over the rate limit) stop at <html>, one step
  // before it, so a refused save keeps the page there as in production (issue 19.3).
  document.documentElement.addEventListener("htmx:beforeOnLoad", function (event) {
    var xhr = event.detail.xhr;
    var target = event.detail.target;
    if (!xhr) return;
    if (((xhr.status === 400 || xhr.status === 409) && target && target.id === "live") ||
        xhr.status === 429) {
      event.stopPropagation();
    }
  });
  // Too many requests (muscore/ratelimits.py): the server retargets its page to <body>,
  // so a tap over the limit says why instead of doing nothing.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr.status === 429) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  // The "¿Alguien mintió?" disclosure lives in the part the server draws again after
  // each tap: once opened, it stays open until the hand is saved.
  var declaredOpen = false;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (target && target.id === "live") declaredOpen = !!target.querySelector("[data-declared][open]");
  });
  document.addEventListener("htmx:afterSwap", function () {
    var declared = document.querySelector("#live [data-declared]");
    if (declared && declaredOpen) declared.open = true;
  });
  document.addEventListener("visibilitychange", function () {
    var live = document.getElementById("board-live");
    if (!document.hidden && live && window.htmx) window.htmx.trigger(live, "refresh");
  });

  // The cards in a field, as the server reads them (muscore.handentry.cards): "R R 5 4",
  // or typed together on a laptop, "rr54" (four keys for four cards, issue 30.1).
  function cardsOf(input) {
    var cards = [];
    input.value.trim().toUpperCase().split(/[\s,]+/).filter(Boolean).forEach(function (token) {
      if (token.length > 1 && /^[1-7SCRA]+$/.test(token)) cards.push.apply(cards, token.split(""));
      else cards.push(token);
    });
    return cards;
  }

  // A seat that showed its four cards is not asked its jugada; with every seat shown,
  // nothing is left to ask.
  function syncJugadas(root) {
    root.querySelectorAll("[data-picker-seat]").forEach(function (row) {
      var seat = row.getAttribute("data-picker-seat");
      var input = row.querySelector("[data-picker-input]");
      var jugada = document.querySelector('[data-jugada-seat="' + seat + '"]');
      if (jugada && input) jugada.hidden = cardsOf(input).length === 4;
    });
    var section = document.querySelector("[data-jugadas]");
    if (section) section.hidden = !section.querySelector("[data-jugada-seat]:not([hidden])");
  }

  function initPicker(root) {
    var keypad = root.querySelector("[data-keypad]");
    var rows = Array.prototype.slice.call(root.querySelectorAll("[data-picker-seat]"));
    var inputs = rows.map(function (row) { return row.querySelector("[data-picker-input]"); });
    if (!keypad || !rows.length) return;
    keypad.hidden = false;
    var status = root.querySelector("[data-picker-status]");
    var touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
    inputs.forEach(function (input) {
      // On a touch screen the keypad replaces the phone's keyboard, which would cover
      // half the table; a laptop's keyboard types into the field as it is (issue 19.9).
      if (touch) input.setAttribute("inputmode", "none");
    });
    var active = 0;
    var said = "";

    // The seat being filled, said by the live region when it changes (a screen reader
    // hears whose cards the keys now go to).
    function announce() {
      if (!status) return;
      var name = rows[active].querySelector(".picker-name");
      var text = format(status.getAttribute("data-msg"), {
        name: name ? name.textContent.trim() : "", n: cardsOf(inputs[active]).length
      });
      if (text !== said) {
        said = text;
        status.textContent = text;
      }
    }

    function firstOpen(from) {
      for (var k = 0; k < rows.length; k++) {
        var i = (from + k) % rows.length;
        if (cardsOf(inputs[i]).length < 4) return i;
      }
      return -1;
    }

    function seatChanged(i) {
      syncJugadas(root);
      inputs[i].dispatchEvent(new Event("change", { bubbles: true }));
    }

    function render() {
      var counts = {};
      inputs.forEach(function (input, i) {
        cardsOf(input).forEach(function (c) { counts[c] = (counts[c] || 0) + 1; });
        rows[i].classList.toggle("active", i === active);
        rows[i].classList.toggle("full", cardsOf(input).length === 4);
      });
      keypad.querySelectorAll("[data-card]").forEach(function (key) {
        // A deck holds four of each value: a fifth cannot be tapped.
        key.disabled = (counts[key.getAttribute("data-card")] || 0) >= 4;
      });
      announce();
    }

    rows.forEach(function (row, i) {
      row.addEventListener("click", function () { active = i; render(); });
      // Tab to a seat: the keypad fills it next, and the page says so.
      inputs[i].addEventListener("focus", function () { active = i; render(); });
      inputs[i].addEventListener("input", function (event) {
        if (event.isTrusted) {
          syncJugadas(root);
          render();
        }
      });
    });
    keypad.addEventListener("click", function (event) {
      var key = event.target.closest("[data-card]");
      var back = event.target.closest("[data-card-back]");
      if (key) {
        if (cardsOf(inputs[active]).length >= 4) {
          var open = firstOpen(active);
          if (open < 0) return;
          active = open;
        }
        var cards = cardsOf(inputs[active]);
        cards.push(key.getAttribute("data-card"));
        inputs[active].value = cards.join(" ");
        if (cards.length === 4) {
          seatChanged(active);
          var next = firstOpen(active);
          if (next >= 0) active = next;
        }
      } else if (back) {
        var mine = cardsOf(inputs[active]);
        if (!mine.length) return;
        var wasFull = mine.length === 4;
        mine.pop();
        inputs[active].value = mine.join(" ");
        if (wasFull) seatChanged(active);
      }
      // Every card counts as typed (the hand in progress keeps it); only a full or
      // emptied seat is a "change" the server is asked about.
      inputs[active].dispatchEvent(new Event("input", { bubbles: true }));
      render();
    });
    var start = firstOpen(0);
    active = start < 0 ? 0 : start;
    render();
  }

  function initSetup(form) {
    // The mano picker says the names just typed (or A1, B1... until there are names).
    function names() {
      form.querySelectorAll('input[name="mano"]').forEach(function (radio) {
        var input = form.querySelector('input[name="name_' + radio.value + '"]');
        var label = radio.closest("label");
        var span = label && label.querySelector("span");
        if (!input || !span) return;
        span.textContent = input.value.trim() || input.getAttribute("placeholder") || span.textContent;
      });
    }
    form.addEventListener("input", names);
    names();
    function sync() {
      // The seats of the table chosen (2 to 6; "4i", "6i": four or six each for himself):
      // the other names and manos are hidden.
      var checked = form.querySelector('input[name="players"]:checked');
      var value = checked ? checked.value : "4";
      var count = parseInt(value, 10) || 4;
      var alone = value !== "4" && value !== "6";
      form.querySelectorAll(".name-row[data-seat]").forEach(function (row) {
        row.hidden = Number(row.getAttribute("data-seat")) >= count;
      });
      form.querySelectorAll('input[name="mano"]').forEach(function (radio) {
        if (radio.value !== "random") radio.closest("label").hidden = Number(radio.value) >= count;
      });
      // Each for himself, every seat is its own side (A, B, C...); by pairs A, B, A, B.
      form.querySelectorAll("[data-side-tag]").forEach(function (tag) {
        var side = tag.getAttribute(alone ? "data-alone" : "data-pairs");
        tag.textContent = side;
        tag.className = "side-tag side-" + side;
      });
      form.querySelectorAll("input[data-alone-placeholder]").forEach(function (input) {
        if (!input.hasAttribute("data-pairs-placeholder")) {
          input.setAttribute("data-pairs-placeholder", input.getAttribute("placeholder") || "");
        }
        input.setAttribute("placeholder", input.getAttribute(alone ? "data-alone-placeholder" : "data-pairs-placeholder"));
      });
      // A table of two, or each for himself, has no partners: its own words on who sits
      // where (issue 30.4, issue 37).
      form.querySelectorAll("[data-seat-note]").forEach(function (note) {
        var kind = note.getAttribute("data-seat-note");
        note.hidden = kind !== (count === 2 ? "two" : alone ? "alone" : "pairs");
      });
      names();
    }
    form.addEventListener("change", sync);
    sync();
  }


  // --- offline (issue #4.4) -------------------------------------------------------------
  // The service worker (/sw.js) keeps the last board and hand page for a phone without
  // signal. Here: the "sin conexión" mark, the copy of the board kept up to date as the
  // poll brings changes, and the queue of hands saved without signal (localStorage),
  // sent with their client id when the signal is back. The server stores one hand per
  // client id, so a hand sent twice (the answer lost on the way) is still one hand.
  var QUEUE_KEY = "muscore:queue";
  var PAGES_CACHE = "muscore-pages"; // the service worker's copy of the pages

  function bar() { return document.querySelector("[data-connection]"); }

  function format(template, values) {
    return (template || "").replace(/\{(\w+)\}/g, function (all, name) {
      return name in values ? values[name] : all;
    });
  }

  function say(part, text) {
    var root = bar();
    var el = root && root.querySelector("[data-" + part + "]");
    if (!el) return;
    el.textContent = text || "";
    el.hidden = !text;
  }

  // One note at a time (issue 38.8: after a save without signal three said the same
  // thing at once): the first of these that has something to say is shown, the others
  // wait (data-quiet) until it is done.
  var NOTES = ["[data-refused]", "[data-synced]", "[data-pending]", "[data-offline]"];
  function oneNote() {
    var root = bar();
    if (!root) return;
    var shown = false;
    NOTES.forEach(function (selector) {
      var note = root.querySelector(selector);
      if (!note) return;
      if (!note.hidden && !shown) {
        shown = true;
        note.removeAttribute("data-quiet");
      } else if (!note.hidden) {
        note.setAttribute("data-quiet", "");
      } else {
        note.removeAttribute("data-quiet");
      }
    });
  }
  function watchNotes() {
    var root = bar();
    if (!root || !window.MutationObserver) return;
    new MutationObserver(oneNote).observe(root, { subtree: true, attributes: true, attributeFilter: ["hidden"] });
    oneNote();
  }

  function setOffline(offline) {
    document.documentElement.classList.toggle("is-offline", offline);
    var root = bar();
    var el = root && root.querySelector("[data-offline]");
    if (el) el.hidden = !offline;
  }

  function readQueue() {
    try {
      var queue = JSON.parse(window.localStorage.getItem(QUEUE_KEY) || "[]");
      return Array.isArray(queue) ? queue : [];
    } catch (e) {
      return [];
    }
  }

  function writeQueue(queue) {
    window.localStorage.setItem(QUEUE_KEY, JSON.stringify(queue));
  }

  function newClientId() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    var b = window.crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  function field(fields, name) {
    for (var i = 0; i < fields.length; i++) if (fields[i][0] === name) return fields[i][1];
    return "";
  }

  function setField(fields, name, value) {
    for (var i = 0; i < fields.length; i++) if (fields[i][0] === name) { fields[i][1] = value; return; }
    fields.push([name, value]);
  }

  // This page's path without its language's prefix (/en/t/<id>/ is /t/<id>/ in English:
  // muscore.addresses; no page of the site starts with a two-letter folder of its own).
  function sitePath() {
    return window.location.pathname.replace(/^\/[a-z]{2}\//, "/");
  }

  // Whether this page is one of the table's, whatever its language's address.
  function onTable(table) {
    return sitePath().indexOf("/t/" + table + "/") === 0;
  }

  function showPending() {
    var root = bar();
    if (!root) return;
    var here = readQueue().filter(function (item) {
      return !item.refused && onTable(item.table);
    });
    var numbers = here.map(shownNumber);
    // One hand is said as a hand ("la mano 17"), never as a bare "17" that reads as a count.
    var text = "";
    if (numbers.length === 1) text = format(root.getAttribute("data-msg-pending-one"), { n: numbers[0] });
    else if (numbers.length) text = format(root.getAttribute("data-msg-pending"), { list: numbers.join(", ") });
    say("pending", text);
  }

  // The number a player reads (hands dealt, as the server wrote it on the entry), not the
  // entry number that keys the record: piedras taps are entries, not hands.
  function shownNumber(item) { return item.shown || item.number; }

  function dealtFor(form, number) {
    var formNumber = parseInt(form.getAttribute("data-number"), 10);
    var dealt = parseInt(form.getAttribute("data-dealt"), 10);
    return formNumber && dealt ? dealt + (number - formNumber) : number;
  }

  // A page kept offline opens the hand after the last one saved on the phone, not the
  // one it was kept for: its number, title and draft move on past the queue.
  function nextOfflineNumber(form) {
    var table = form.getAttribute("data-table");
    var number = parseInt(form.getAttribute("data-number"), 10);
    if (!number) return;
    var next = number;
    readQueue().forEach(function (item) {
      // Only hands still to send: a refused one is reopened on purpose, as itself.
      if (item.table === table && !item.refused && item.number >= next) next = item.number + 1;
    });
    if (next === number) return;
    renumber(form, next, dealtFor(form, next));
    moveMano(form, next - number);
  }

  // Every hand kept on the phone is dealt, and moves the mano on: to the next of the manos
  // the server listed for the hands from this one on (data-manos, round the table once;
  // rules.md: one seat to the right a hand, across juegos and vacas). What the page says
  // of the hand after them: its mano, the seats in speaking order from him, each card
  // field's name. The score before it is the server's to count: not said.
  function moveMano(form, hands) {
    var seats = offlineSeats();
    var manos;
    try {
      manos = JSON.parse(form.getAttribute("data-manos") || "[]");
    } catch (e) {
      manos = [];
    }
    var at = manos.indexOf(parseInt(form.getAttribute("data-mano"), 10));
    if (!seats.length || at < 0) return;
    var mano = manos[(at + hands) % manos.length];
    speakFrom(form, mano);
    seats.forEach(function (seat, i) {
      var input = form.querySelector("#id_c" + i);
      if (input) input.setAttribute("aria-label", i === mano ? seat.field_mano : seat.field);
    });
    var before = document.querySelector("[data-entry-before]");
    if (before) before.textContent = format(offlineWords()("w-before"), { name: seats[mano].name });
  }

  // The board's "Mano: X · da: Y" moved on past the hands this phone keeps for the table,
  // as the hand page is: the server listed who is mano and who deals for the next hand
  // and the ones after it (data-turns), round the table once.
  function turnAfterKept() {
    var line = document.querySelector("[data-turns]");
    var turns;
    try {
      turns = JSON.parse((line && line.getAttribute("data-turns")) || "[]");
    } catch (e) {
      turns = [];
    }
    var names = line ? line.querySelectorAll("strong") : [];
    if (!turns.length || names.length !== 2) return;
    var kept = readQueue().filter(function (item) {
      return !item.refused && onTable(item.table);
    }).length;
    var next = turns[kept % turns.length];
    // The sentence names the mano first, then the dealer, in every language.
    names[0].textContent = next[0];
    names[1].textContent = next[1];
  }

  // The entry's number (the record's key) and the number players read, in every place
  // the page says or keeps them: the fields, the draft's key, the title and the notes.
  function renumber(form, number, dealt) {
    var input = form.querySelector('input[name="number"]');
    var before = String(parseInt(form.getAttribute("data-dealt"), 10) || form.getAttribute("data-number"));
    var after = String(dealt);
    if (!input || !number) return;
    input.value = String(number);
    form.setAttribute("data-draft", form.getAttribute("data-table") + ":n" + number);
    form.setAttribute("data-dealt", after);
    form.setAttribute("data-number", String(number));
    if (before === after) return;
    var words = new RegExp("(^|\\D)" + before + "(?!\\d)");
    var h1 = document.querySelector("h1");
    if (h1) h1.textContent = h1.textContent.replace(words, "$1" + after);
    document.title = document.title.replace(words, "$1" + after);
    var note = document.querySelector("[data-draft-note] p");
    if (note) note.textContent = note.textContent.replace(words, "$1" + after);
    document.querySelectorAll("[data-confirm]").forEach(function (link) {
      link.setAttribute("data-confirm", link.getAttribute("data-confirm").replace(words, "$1" + after));
    });
  }

  // A hand saved without signal: kept on the phone, then off to the board's last copy.
  function queueHand(form, formData) {
    var fields = [];
    formData.forEach(function (value, name) {
      if (typeof value === "string") fields.push([name, value]);
    });
    var table = form.getAttribute("data-table");
    var queue = readQueue();
    var same = JSON.stringify(fields);
    if (queue.some(function (item) { return JSON.stringify(item.fields) === same; })) return; // a double tap
    var clientId = field(fields, "client_id");
    // A page kept offline serves every hand entered from it: each needs its own id and number.
    if (queue.some(function (item) { return item.clientId === clientId; })) clientId = newClientId();
    var number = parseInt(field(fields, "number"), 10) || 1;
    queue.forEach(function (item) {
      if (item.table === table && item.number >= number) number = item.number + 1;
    });
    setField(fields, "client_id", clientId);
    setField(fields, "number", String(number));
    var shown = dealtFor(form, number);
    queue.push({ table: table, action: form.action, clientId: clientId, number: number, shown: shown, fields: fields });
    writeQueue(queue);
    dropDraft();  // the queue holds the hand now
    leaving = true;
    window.sessionStorage.setItem("muscore:queued", String(shown));
    window.location.href = form.getAttribute("data-board");
  }

  // A hand the server refused as incomplete or wrong stays on the phone until it is
  // opened again: the entry comes back filled in, with what is missing, same client id.
  function showRefused(message, item) {
    var root = bar();
    var box = root && root.querySelector("[data-refused]");
    if (!box) return;
    box.querySelector("[data-refused-text]").textContent = message;
    var open = box.querySelector("[data-refused-open]");
    open.hidden = !item;
    if (item) {
      open.textContent = format(root.getAttribute("data-msg-fix"), { n: shownNumber(item) });
      open.onclick = function () { openRefused(item); };
    }
    box.hidden = false;
  }

  function openRefused(item) {
    writeQueue(readQueue().filter(function (other) { return other.clientId !== item.clientId; }));
    var form = document.createElement("form");
    form.method = "post";
    form.action = item.action;
    form.hidden = true;
    item.fields.forEach(function (pair) {
      if (item.conflict && pair[0] === "number") return;  // the next hand's number, then
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = pair[0];
      input.value = pair[0] === "act" ? "check" : pair[1];
      form.appendChild(input);
    });
    document.body.appendChild(form);
    form.submit();
  }

  function refusedHere() {
    var here = readQueue().filter(function (item) {
      return item.refused && onTable(item.table);
    });
    if (here.length) showRefused(here[0].refused, here[0]);
  }

  // The hands this page has sent since it opened: all said, never only the last one.
  var syncedHere = [];
  function saySynced(root) {
    var text = "";
    if (syncedHere.length === 1) {
      text = format(root && root.getAttribute("data-msg-synced"), { n: syncedHere[0] });
    } else if (syncedHere.length > 1) {
      text = format(root && root.getAttribute("data-msg-synced-many"), {
        list: syncedHere.slice(0, -1).join(", "), last: syncedHere[syncedHere.length - 1],
      });
    }
    say("synced", text);
  }

  // A refusal's paragraphs joined as sentences ("...Bruno y Diego. Punto: falta..."), not
  // glued together by textContent (issue 30.6).
  function sentences(box) {
    var parts = Array.prototype.map.call(box.querySelectorAll("p"), function (p) {
      return p.textContent.trim().replace(/\s+/g, " ");
    }).filter(Boolean);
    return parts.length ? parts.join(" ") : box.textContent.trim().replace(/\s+/g, " ");
  }

  // The live part of the board a save answered (static/js: the saver's board, 38.4), in
  // place of this page's, when this page is that board.
  function showBoard(fresh) {
    var live = document.getElementById("board-live");
    if (!live || !window.htmx || !fresh) return;
    if (fresh.getAttribute("hx-get") !== live.getAttribute("hx-get")) return;
    window.htmx.swap(live, fresh.outerHTML, { swapStyle: "outerHTML", settleDelay: 0 });
  }

  // The next hand a kept hand's save answered (its board's live part), once nothing else
  // of its table waits on the phone: kept for the hand page, and taken by the hand page
  // open for it (kept offline, it said "tanteo al volver la señal"), as online.
  function nextAfterSent(fresh, sent) {
    if (!fresh) return;
    keepNextHand(fresh);
    var form = document.querySelector("form[data-queue-offline]");
    if (!form || form.getAttribute("data-table") !== sent.table) return;
    if (readQueue().some(function (item) { return item.table === sent.table && !item.refused; })) return;
    var next;
    try {
      next = JSON.parse(fresh.getAttribute("data-next-hand") || "null");
    } catch (e) {
      next = null;
    }
    // Another phone's hand came first: this page's save says so (409), as online.
    if (next && next.number === Number(form.getAttribute("data-number"))) takeNext(form, next);
  }

  var flushing = false;
  function flush() {
    var queue = readQueue().filter(function (item) { return !item.refused; });
    if (flushing || !queue.length) return;
    flushing = true;
    var item = queue[0];
    var root = bar();
    window.fetch(item.action, {
      method: "POST",
      body: new URLSearchParams(item.fields),
      headers: { "HX-Request": "true" },
      credentials: "same-origin",
    }).then(function (response) {
      return response.text().then(function (text) {
        // The server answered: the hand is stored, or it was refused (never both).
        var others = readQueue().filter(function (other) { return other.clientId !== item.clientId; });
        if (response.ok && saved(response.headers)) {
          writeQueue(others);
          syncedHere.push(shownNumber(item));
          // Said once the board shows it (issue 38.8: "sincronizadas" came 1.5 s before
          // the score): the save answered the board, whose live part goes in first.
          var fresh = new DOMParser().parseFromString(text, "text/html").getElementById("board-live");
          showBoard(fresh);
          nextAfterSent(fresh, item);
          sayShown(response.headers);
          saySynced(root);
        } else {
          var page = new DOMParser().parseFromString(text, "text/html");
          var why = page.querySelector("[role=alert]") || page.querySelector("h1");
          var message = format(root && root.getAttribute("data-msg-refused"), {
            n: shownNumber(item), why: why ? sentences(why) : String(response.status),
          });
          // Nothing entered is ever dropped: the hand stays on the phone, to be opened
          // filled in. Incomplete or wrong (400): completed there. Its number taken by
          // another phone's hand (409): opened as the next hand, to be saved or thrown
          // away on purpose. A link no longer valid: kept, and said.
          item.refused = message;
          if (response.status === 409) item.conflict = true;
          others.push(item);
          writeQueue(others);
          // The signal is back: the green "sin conexión, queda guardada" note is over;
          // only what was sent stays beside the refusal.
          saySynced(root);
          showRefused(message, response.status === 400 || response.status === 409 ? item : null);
        }
        setOffline(false);
        flushing = false;
        showPending();
        var live = document.getElementById("board-live");
        if (live && window.htmx) window.htmx.trigger(live, "refresh");
        flush();
      });
    }).catch(function () {
      flushing = false;
      setOffline(true);
    });
  }

  // --- the hand entry without signal (issue 8.3) -----------------------------------------
  // Online, every tap is a round trip: the server asks the engine (muscore.rules.HandDraft)
  // and draws what follows. Without signal the page works out nothing itself: it says
  // only what it can know ("pares, si los hay", "juego o punto" once the cards have
  // changed), offers each lance the same buttons whoever bet before, and keeps every tap
  // in the hidden field "taps". The server replays them through the same draft when the
  // hand is sent; a tap it cannot take sends the hand back to the phone, filled in, with
  // the reason.
  var ACT = /^(bet|end|pop|clear|paso):/;

  function isOffline() {
    return !navigator.onLine || document.documentElement.classList.contains("is-offline");
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function offlineWords() {
    var words = document.querySelector("[data-offline-words]");
    return function (name) { return (words && words.getAttribute("data-" + name)) || ""; };
  }

  function tapsField(live) {
    var input = live.querySelector('input[name="taps"]');
    if (!input) {
      input = el("input", { type: "hidden", name: "taps" });
      live.appendChild(input);
    }
    return input;
  }

  function tapButton(act, label, extra, name) {
    var button = el("button", { type: "button", "data-offline-tap": act, "class": "btn " + (extra || "btn-bet") }, label);
    if (name) button.setAttribute("aria-label", name);
    return button;
  }

  // The buttons' names as online ("Envido de Ana y Carla a la grande"), written by the
  // server in the page's language (muscore.handentry.spoken.offline_names).
  function offlineNames() {
    var words = document.querySelector("[data-offline-words]");
    try {
      return JSON.parse((words && words.getAttribute("data-offline-names")) || "{}");
    } catch (error) {
      return {};
    }
  }

  function nameOf(names, key, side, what) {
    return (names[key] && names[key][side] && names[key][side][what]) || "";
  }

  // Each side's short label by letter (every player's in individual play).
  function offlineLabels() {
    var t = offlineWords();
    try {
      return JSON.parse(t("labels") || "{}");
    } catch (error) {
      return { A: t("label-a"), B: t("label-b") };
    }
  }

  // Each seat's name and card field's names, by seat (HandEntry.offline_seats_json).
  function offlineSeats() {
    try {
      var seats = JSON.parse(offlineWords()("seats") || "[]");
      return Array.isArray(seats) ? seats : [];
    } catch (error) {
      return [];
    }
  }

  // Individual play (issue 37): the table talks player by player, and the page without
  // signal cannot know whose turn it is (who holds pares, who left): every player gets his
  // words, and the server replays them in turn through the engine when the hand is sent.
  function isIndividual() {
    return !!document.querySelector("[data-offline-words][data-individual]");
  }

  // What was tapped in a lance, said back as tapped (the server says the rest).
  function sayTaps(live) {
    var t = offlineWords();
    var names = offlineNames();
    var labels = offlineLabels();
    var taps = tapsField(live).value.split(/\s+/).filter(Boolean);
    live.querySelectorAll("[data-offline-said]").forEach(function (said) {
      var lance = said.getAttribute("data-offline-said");
      var words = taps.filter(function (act) { return act.split(":")[1] === lance; }).map(function (act) {
        var parts = act.split(":");
        var answer = t(parts[2] === "quiero" ? "w-quiero" : "w-no-quiero");
        if (parts[0] === "end" && parts[3]) return labels[parts[3]] + ": " + answer;
        if (parts[0] === "end") return answer;
        if (parts[0] === "pop") return t("t-undo");
        if (parts[0] === "paso") return (parts[2] ? labels[parts[2]] + ": " : "") + t("w-paso");
        var what = parts[3] === "ordago" ? t("w-ordago") : format(t("w-envido"), { n: parts[3] });
        return labels[parts[2]] + ": " + what;
      });
      said.textContent = words.length ? words.join(" · ") + " " + t("t-pending") : "";
      said.hidden = !words.length;
      // Quiero and no quiero are named after the last bet, by the names the server wrote
      // for an answer to that side's bet (who answers is the server's to say).
      var bets = taps.filter(function (act) {
        var parts = act.split(":");
        return parts[0] === "bet" && parts[1] === lance;
      });
      var bettor = bets.length ? bets[bets.length - 1].split(":")[2] : "";
      var section = said.closest("section[data-lance]");
      if (!section || isIndividual()) return;
      ["quiero", "no_quiero"].forEach(function (end) {
        var button = section.querySelector('[data-offline-tap="end:' + lance + ':' + end + '"]');
        var name = bettor ? nameOf(names, lance, bettor, "answer_" + end) : "";
        if (!button) return;
        if (name) button.setAttribute("aria-label", name);
        else button.removeAttribute("aria-label");
      });
    });
  }

  // The lances as the page can know them without the server: every lance may be bet.
  function offlineEntry(live) {
    if (!live || live.hasAttribute("data-offline-entry")) return;
    live.setAttribute("data-offline-entry", "");
    var t = offlineWords();
    var names = offlineNames();
    var labels = offlineLabels();
    live.querySelectorAll("section[data-lance]").forEach(function (section) {
      var lance = section.getAttribute("data-lance");
      var key = lance === "juego" || lance === "punto" ? "fourth" : lance;
      var winner = section.querySelector("fieldset.winner");
      Array.prototype.slice.call(section.children).forEach(function (child) {
        if (child.tagName !== "H2" && child !== winner) child.remove();
      });
      section.classList.remove("lance-off");
      section.setAttribute("data-offline-lance", key);
      var title = section.querySelector("h2");
      if (key === "fourth") title.textContent = t("t-fourth");
      if (key === "pares") title.textContent = t("t-pares");
      var add = function (node) { section.insertBefore(node, winner || null); };
      add(el("p", { "class": "bets muted", "data-offline-said": key, hidden: "" }));
      if (isIndividual()) {
        offlineTalk(key, labels, names, add);
        return;
      }
      ["A", "B"].forEach(function (side) {
        var row = el("div", { "class": "bet-row" });
        row.appendChild(el("span", { "class": "bet-who side-tag side-" + side }, labels[side]));
        row.appendChild(tapButton("bet:" + key + ":" + side + ":2", t("t-envido"), null,
          nameOf(names, key, side, "envido")));
        row.appendChild(tapButton("bet:" + key + ":" + side + ":ordago", t("t-ordago"), null,
          nameOf(names, key, side, "ordago")));
        add(row);
      });
      var answer = el("div", { "class": "bet-row" });
      answer.appendChild(tapButton("end:" + key + ":quiero", t("t-quiero")));
      answer.appendChild(tapButton("end:" + key + ":no_quiero", t("t-no-quiero")));
      add(answer);
      var amount = el("div", { "class": "bet-row bet-amount" });
      amount.appendChild(el("label", { "for": "offline-a-" + key }, t("t-amount")));
      var amountInput = el("input", { id: "offline-a-" + key, type: "number", min: "1", max: "99", inputmode: "numeric", "data-offline-amount": "" });
      // One name per lance ("Otra cantidad a la grande"), as online.
      if ((names[key] || {}).amount_field) amountInput.setAttribute("aria-label", names[key].amount_field);
      amount.appendChild(amountInput);
      var sides = el("div", { "class": "bet-sides" });
      ["A", "B"].forEach(function (side) {
        sides.appendChild(tapButton("bet:" + key + ":" + side + ":amt", labels[side], "btn-small btn-side",
          nameOf(names, key, side, "amount")));
      });
      amount.appendChild(sides);
      add(amount);
      add(tapButton("pop:" + key, t("t-undo"), "btn-small btn-quiet", (names[key] || {}).undo));
    });
    var preview = live.querySelector(".preview");
    if (preview) {
      Array.prototype.slice.call(preview.children).forEach(function (child) {
        if (child.tagName !== "H2") child.remove();
      });
      preview.appendChild(el("p", { "class": "muted", "data-no-preview": "" }, t("t-no-preview")));
    }
    sayTaps(live);
  }

  // Individual play without signal: a row of words for every player of the table.
  function offlineTalk(key, labels, names, add) {
    var t = offlineWords();
    Object.keys(labels).forEach(function (side) {
      var row = el("div", { "class": "bet-row talk-offline", "data-offline-side": side });
      row.appendChild(el("span", { "class": "bet-who side-tag side-" + side }, labels[side]));
      [["paso:" + key + ":" + side, t("t-paso"), "paso"],
       ["bet:" + key + ":" + side + ":2", t("t-envido"), "envido"],
       ["bet:" + key + ":" + side + ":ordago", t("t-ordago"), "ordago"],
       ["end:" + key + ":quiero:" + side, t("t-quiero"), "quiero"],
       ["end:" + key + ":no_quiero:" + side, t("t-no-quiero"), "no_quiero"]].forEach(function (b) {
        row.appendChild(tapButton(b[0], b[1], "btn-small", nameOf(names, key, side, b[2])));
      });
      add(row);
    });
    var amount = el("div", { "class": "bet-row bet-amount" });
    amount.appendChild(el("label", { "for": "offline-a-" + key }, t("t-amount")));
    amount.appendChild(el("input", { id: "offline-a-" + key, type: "number", min: "1", max: "99", inputmode: "numeric", "data-offline-amount": "" }));
    var sides = el("div", { "class": "bet-sides" });
    Object.keys(labels).forEach(function (side) {
      sides.appendChild(tapButton("bet:" + key + ":" + side + ":amt", labels[side], "btn-small btn-side",
        nameOf(names, key, side, "amount")));
    });
    amount.appendChild(sides);
    add(amount);
    add(tapButton("paso:" + key, t("t-all-paso"), "btn-small btn-quiet"));
    add(tapButton("pop:" + key, t("t-undo"), "btn-small btn-quiet", (names[key] || {}).undo));
  }

  // A tap kept for the server: the amount typed goes with it; an undo takes back the
  // last tap kept for that lance, or goes to the server as a tap of its own.
  function keepTap(live, act) {
    var input = tapsField(live);
    var taps = input.value.split(/\s+/).filter(Boolean);
    var parts = act.split(":");
    if (parts[0] === "bet" && parts[3] === "amt") {
      var section = live.querySelector('[data-offline-lance="' + parts[1] + '"]');
      var typed = section && section.querySelector("[data-offline-amount]");
      parts[3] = (typed && typed.value.trim()) || "2";
      if (typed) typed.value = "";
      act = parts.join(":");
    }
    var mine = taps.map(function (tap) { return tap.split(":")[1]; }).lastIndexOf(parts[1]);
    if (parts[0] === "pop" && mine >= 0) taps.splice(mine, 1);
    else taps.push(act);
    input.value = taps.join(" ");
    sayTaps(live);
    staleErrors(live);
    keepDraft();
  }

  // What the server said of the hand as it was (a refusal of the hand reopened from the
  // queue, a save refused) stops applying once the hand is changed: online the answer
  // redraws it, but without signal nothing would, and the old refusal would stand beside
  // the fixed hand. It goes at the first change; the server checks the hand again when
  // it is saved (and, if it still cannot take it, says so anew).
  function staleErrors(scope) {
    var form = scope && scope.closest ? scope.closest("form#entry") || scope : null;
    if (!form || !isOffline()) return;
    form.querySelectorAll("[data-entry-errors], [data-save-errors], [data-missing]").forEach(function (box) {
      if (box.hasAttribute("data-missing")) {
        box.removeAttribute("data-missing");
        box.classList.remove("is-missing");
      } else {
        box.remove();
      }
    });
    var live = form.querySelector("#live");
    if (live) live.removeAttribute("data-refused-save");
  }

  function liveOf(elt) {
    var form = elt && elt.closest ? elt.closest("form#entry") : null;
    return form && form.querySelector("#live");
  }

  // Without signal a tap never leaves the phone.
  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target : null;
    var kept = target && target.closest("[data-offline-tap]");
    if (kept) {
      event.preventDefault();
      keepTap(liveOf(kept), kept.getAttribute("data-offline-tap"));
      return;
    }
    var button = target && target.closest('button[name="act"]');
    if (!button || !ACT.test(button.value) || !isOffline()) return;
    var live = liveOf(button);
    if (!live) return;
    event.preventDefault();
    event.stopPropagation();
    var parts = button.value.split(":");
    var key = parts[1] === "juego" || parts[1] === "punto" ? "fourth" : parts[1];
    offlineEntry(live);
    keepTap(live, [parts[0], key].concat(parts.slice(2)).join(":"));
  }, true);

  // Keep the service worker's copy of this board (and its hand page) as fresh as the
  // screen, so the board opened without signal shows the last score this phone saw. The
  // board's copy is this page as it stands, its live part just swapped in: a pushed
  // change costs no request (issue 38.4: it cost a fetch of the whole board, drawn again
  // by the server for every phone at every save). On the edit link the hand page is kept
  // too, so a hand can be entered without signal: fetched when the board opens, and after
  // a change brought up to date from the change itself (the next hand the live part
  // carries, kept below for the hand page to take), never fetched again (issue 38.4: a
  // whole hand page a phone a save).
  function boardCopy() {
    var html = "<!doctype html>\n" + document.documentElement.outerHTML;
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  }

  var NEXT_PREFIX = "muscore:next:";

  // The next hand as this board last showed it, under its hand page's path; never one
  // of an older revision (a late poll) over a newer one.
  function keepNextHand(live) {
    var hand = live.getAttribute("data-hand-url");
    var next = live.getAttribute("data-next-hand");
    if (!hand || !next) return;
    try {
      var kept = JSON.parse(window.localStorage.getItem(NEXT_PREFIX + hand) || "null");
      if (kept && kept.revision > JSON.parse(next).revision) return;
      window.localStorage.setItem(NEXT_PREFIX + hand, next);
    } catch (e) { /* a full or closed storage keeps nothing more; the page still works */ }
  }

  function keepPages(changed) {
    var live = document.getElementById("board-live");
    if (!live) return;
    keepNextHand(live);
    if (!window.caches || !navigator.onLine) return;
    var here = window.location.pathname;
    // A board the worker controls was kept by it on the way in; after a change it is not.
    var keepBoard = changed || !(navigator.serviceWorker && navigator.serviceWorker.controller);
    var hand = changed ? null : live.getAttribute("data-hand-url");
    window.caches.open(PAGES_CACHE).then(function (cache) {
      var kept = keepBoard ? [cache.put(window.location.origin + here, boardCopy())] : [];
      if (hand) {
        // no-store: a copy for the worker, not a new entry in the browser's HTTP cache.
        kept.push(window.fetch(hand, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
          if (response.ok && !response.redirected) {
            return cache.put(window.location.origin + hand, response);
          }
        }));
      }
      return Promise.all(kept);
    }).catch(function () { /* a copy not kept is only a copy not kept */ });
  }

  // The hand page this phone kept, opened after the table changed (without signal, from
  // the worker's copy): it becomes the next hand's page as the board last showed it, its
  // number, the words above the cards, the seats in speaking order from the new mano,
  // and an id of its own (the kept page's may be the one of a hand already saved).
  function catchUp(form) {
    var next;
    try {
      next = JSON.parse(window.localStorage.getItem(NEXT_PREFIX + window.location.pathname) || "null");
    } catch (e) {
      next = null;
    }
    // Only a copy drawn before the board's last change: a page the server draws now (a
    // hand reopened after a refusal, with its own id and fields) is as new as the table.
    var revision = form.querySelector('input[name="revision"]');
    if (!next || !revision || !(next.revision > Number(form.getAttribute("data-drawn-revision")))) return;
    takeNext(form, next);
  }

  // The next hand as the server drew it (`keepNextHand`'s) on this hand page: the table's
  // revision, an id of its own (the page's may be the one of a hand already saved), the
  // number, the words above the cards, the seats in speaking order from the mano.
  function takeNext(form, next) {
    var revision = form.querySelector('input[name="revision"]');
    if (revision) revision.value = String(next.revision);
    var id = form.querySelector('input[name="client_id"]');
    if (id) id.value = newClientId();
    renumber(form, next.number, next.dealt);
    var before = document.querySelector("[data-entry-before]");
    if (before && next.before) before.textContent = next.before;
    speakFrom(form, next.mano);
    Object.keys(next.fields || {}).forEach(function (key) {
      var input = form.querySelector("#id_c" + key);
      if (input) input.setAttribute("aria-label", next.fields[key]);
    });
  }

  // The card picker's and the jugadas' seats in speaking order from `mano`.
  function speakFrom(form, mano) {
    form.setAttribute("data-mano", String(mano));
    ["[data-picker-seat]", "[data-jugada-seat]"].forEach(function (selector) {
      var rows = Array.prototype.slice.call(form.querySelectorAll(selector));
      if (!rows.length) return;
      var n = rows.length;
      var seat = function (row) {
        return Number(row.getAttribute(selector.slice(1, -1)));
      };
      var anchor = rows[n - 1].nextSibling;
      var parent = rows[0].parentNode;
      rows.sort(function (x, y) { return (seat(x) - mano + n) % n - (seat(y) - mano + n) % n; });
      rows.forEach(function (row) { parent.insertBefore(row, anchor); });
    });
  }

  document.addEventListener("htmx:sendError", function (event) {
    setOffline(true);
    var elt = event.detail.elt;
    var form = elt && elt.closest ? elt.closest("form[data-queue-offline]") : null;
    var config = event.detail.requestConfig;
    var act = config && config.formData ? config.formData.get("act") : null;
    if (form && act === "save") {
      queueHand(form, config.formData);
    } else if (form) {
      // The signal went as something was tapped: from now on the page says only what
      // it can know, and keeps the taps for the server.
      var live = form.querySelector("#live");
      offlineEntry(live);
      if (act && ACT.test(act)) {
        var parts = act.split(":");
        var key = parts[1] === "juego" || parts[1] === "punto" ? "fourth" : parts[1];
        keepTap(live, [parts[0], key].concat(parts.slice(2)).join(":"));
      }
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status > 0) {
      setOffline(false);
      if (readQueue().length) flush();
    }
  });
  // Once settled: htmx puts the new attributes (the revision) on at the settle.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (isPoll(event.detail.elt)) keepPages(true);
  });
  window.addEventListener("offline", function () { setOffline(true); });
  window.addEventListener("online", function () {
    setOffline(false);
    flush();
    var live = document.getElementById("board-live");
    if (live && window.htmx) window.htmx.trigger(live, "refresh");
  });

  function initOffline() {
    watchNotes();
    var sw = document.querySelector('meta[name="muscore-sw"]');
    if (sw && "serviceWorker" in navigator) {
      navigator.serviceWorker.register(sw.getAttribute("content"), { scope: "/" }).catch(function () {});
    }
    if (!navigator.onLine) setOffline(true);
    var queued = window.sessionStorage.getItem("muscore:queued");
    if (queued) {
      window.sessionStorage.removeItem("muscore:queued");
      var root = bar();
      say("synced", format(root && root.getAttribute("data-msg-queued"), { n: queued }));
    }
    showPending();
    refusedHere();
    turnAfterKept();
    keepPages();
    // Straight after a save that could not be sent, wait for a sign of signal (the
    // "online" event, a poll answered) instead of trying again at once.
    if (navigator.onLine && !queued) flush();
  }

  // --- the hand in progress (issue 9.1, 9.2, 9.5) ------------------------------------------
  // What is entered for a hand lives in the form's fields (cards, jugadas, winners, and
  // each lance's bets in hidden fields the server draws). A copy is kept on this phone
  // (localStorage, per table and hand number) after every tap, so a reload, a call or a
  // closed tab brings the hand back; it goes when the hand is saved (or queued without
  // signal) or thrown away on purpose ("Volver sin guardar", "Empezar de cero").
  var DRAFT_PREFIX = "muscore:draft:";
  var NOT_ENTERED = { csrfmiddlewaretoken: 1, act: 1 };
  var NOT_COMPARED = { client_id: 1, revision: 1, number: 1 };
  var entryForm = null;
  var entryStart = "";
  var leaving = false;  // saved, queued or thrown away: the page may go without asking

  function draftKey() {
    return entryForm ? DRAFT_PREFIX + entryForm.getAttribute("data-draft") : "";
  }

  function entryFields(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string" && !NOT_ENTERED[name]) fields.push([name, value]);
    });
    return fields;
  }

  // What was entered, compared apart from the form's own bookkeeping and field order.
  function entered(fields) {
    return JSON.stringify(fields.filter(function (pair) {
      return !NOT_COMPARED[pair[0]] && !/^a_/.test(pair[0]);
    }).map(function (pair) { return pair[0] + "=" + pair[1]; }).sort());
  }

  function hasEntries() {
    return !!entryForm && entered(entryFields(entryForm)) !== entryStart;
  }

  function keepDraft() {
    if (!entryForm || leaving) return;
    try {
      if (hasEntries()) {
        window.localStorage.setItem(draftKey(), JSON.stringify({ at: Date.now(), fields: entryFields(entryForm) }));
      } else {
        window.localStorage.removeItem(draftKey());
      }
    } catch (e) { /* a full or closed storage keeps nothing more; the page still works */ }
  }

  function dropDraft() {
    if (!entryForm) return;
    try { window.localStorage.removeItem(draftKey()); } catch (e) { /* nothing kept */ }
  }

  function readDraft() {
    try {
      var kept = JSON.parse(window.localStorage.getItem(draftKey()) || "null");
      return kept && Array.isArray(kept.fields) ? kept.fields : null;
    } catch (e) {
      return null;
    }
  }

  // The kept fields put back: inputs take their values, radios their choice, and what
  // the page does not draw yet (a winner of a lance not shown, a lance's bets) goes in
  // hidden fields the server reads on the next round trip.
  function restoreDraft(form, fields) {
    var values = {};
    fields.forEach(function (pair) { (values[pair[0]] = values[pair[0]] || []).push(pair[1]); });
    var placed = {};
    Array.prototype.forEach.call(form.elements, function (input) {
      var name = input.name;
      if (!name || NOT_ENTERED[name] || input.tagName === "BUTTON" || input.type === "submit") return;
      var kept = values[name];
      if (input.type === "radio" || input.type === "checkbox") {
        input.checked = !!kept && kept.indexOf(input.value) >= 0;
        if (input.checked) placed[name] = true;
      } else if (kept) {
        input.value = kept[0];
        placed[name] = true;
      }
    });
    var live = form.querySelector("#live") || form;
    Object.keys(values).forEach(function (name) {
      if (placed[name]) return;
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = values[name][0];
      input.setAttribute("data-restored", "");
      live.appendChild(input);
    });
    form.querySelectorAll("[data-card-picker]").forEach(syncJugadas);
  }

  function initEntry(form) {
    if (form.hasAttribute("data-queue-offline")) {
      catchUp(form);
      nextOfflineNumber(form);
    }
    entryForm = form;
    entryStart = entered(entryFields(form));
    var kept = readDraft();
    if (kept && entered(kept) !== entryStart) {
      restoreDraft(form, kept);
      var note = document.querySelector("[data-draft-note]");
      if (note) note.hidden = false;
      window.setTimeout(function () {
        // The server draws the lances again from the fields put back (without signal,
        // the page draws the bets itself).
        if (isOffline()) offlineEntry(form.querySelector("#live"));
        else if (window.htmx) window.htmx.trigger(form, "change");
      }, 0);
    }
    form.addEventListener("input", keepDraft);
    form.addEventListener("change", keepDraft);
    form.addEventListener("input", function () { staleErrors(form); });
    form.addEventListener("change", function () { staleErrors(form); });
    var discard = document.querySelector("[data-draft-discard]");
    if (discard) {
      discard.addEventListener("click", function () {
        var back = document.querySelector('[data-action="discard"]');
        if (!window.confirm(back ? back.getAttribute("data-confirm") : "")) return;
        dropDraft();
        leaving = true;
        window.location.replace(window.location.pathname);
      });
    }
    var back = document.querySelector('[data-action="discard"]');
    if (back) {
      back.addEventListener("click", function (event) {
        if (hasEntries() && !window.confirm(back.getAttribute("data-confirm"))) {
          event.preventDefault();
          return;
        }
        dropDraft();
        leaving = true;
      });
    }
  }

  // Back to a hand already saved (or queued, or thrown away) that the browser kept whole in
  // its back-forward cache: that page still shows the old taps, one tap from storing them
  // again as the next hand (issue 19.1). Ask the server for the page as it is now.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && entryForm && leaving) window.location.reload();
  });

  window.addEventListener("beforeunload", function (event) {
    if (!entryForm || leaving || !hasEntries()) return;
    keepDraft();
    event.preventDefault();
    event.returnValue = "";
  });
  // The language switch draws the same page again: the hand comes back from the phone.
  document.addEventListener("submit", function (event) {
    if (entryForm && event.target !== entryForm) {
      keepDraft();
      leaving = true;
    }
  });

  // The language switch (base.html's form.lang) comes back to the page as it is now: the
  // address bar (the calculator's permalink once it has a result), and what the calculator
  // holds so far, kept for this tab and put back on the page drawn in the new language
  // (issue 19.7).
  var CALC_KEY = "muscore:calc";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("lang")) return;
    var next = form.querySelector('input[name="next"]');
    if (next) next.value = window.location.pathname + window.location.search;
    var calc = document.getElementById("calc");
    if (!calc) return;
    try {
      window.sessionStorage.setItem(CALC_KEY, JSON.stringify({
        path: sitePath(), fields: entryFields(calc)
      }));
    } catch (e) { /* nothing kept: the page still switches */ }
  });

  function restoreCalc() {
    var calc = document.getElementById("calc");
    var kept = null;
    try {
      kept = JSON.parse(window.sessionStorage.getItem(CALC_KEY) || "null");
      window.sessionStorage.removeItem(CALC_KEY);
    } catch (e) { kept = null; }
    if (!calc || !kept || kept.path !== sitePath() || !Array.isArray(kept.fields)) return;
    restoreDraft(calc, kept.fields);
    if (window.htmx) window.htmx.trigger(calc, "change");
  }

  // The board a save answered is on the screen: the server tells the other phones now
  // (Muscore-Shown; issue 38.4: a watcher's small pushed fragment was drawn before the
  // saver's whole board). After the next paint, so "shown" is what the eye can see; the
  // server tells them anyway a second after the answer if this never comes.
  function sayShown(headers) {
    var url = headers.get("Muscore-Shown");
    if (!url) return;
    window.requestAnimationFrame(function () {
      window.setTimeout(function () {
        if (navigator.sendBeacon && navigator.sendBeacon(url)) return;
        window.fetch(url, { method: "POST", credentials: "same-origin", keepalive: true }).catch(function () {});
      }, 0);
    });
  }

  // A save stored: the board answered in its place (Muscore-Saved, issue 38.4), or a
  // redirect to it (a server of before).
  function saved(headers) {
    return !!(headers.get("Muscore-Saved") || headers.get("HX-Redirect"));
  }

  function isSave(event) {
    var config = event.detail.requestConfig;
    return !!(config && config.formData && config.formData.get && config.formData.get("act") === "save");
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (entryForm && isSave(event)) leaving = true;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!entryForm || !isSave(event)) return;
    var xhr = event.detail.xhr;
    if (xhr && xhr.status === 200 && saved({ get: function (name) { return xhr.getResponseHeader(name); } })) {
      dropDraft();  // stored: the board comes next, in place of this page
    } else if (xhr && xhr.status === 409) {
      dropDraft();  // another phone's hand stands; this form can only go back to the board
    } else if (xhr && xhr.status > 0) {
      leaving = false;  // refused: the hand stays, to be completed
    }
  });
  // A refused save: the page stays as it was, and shows what is missing, or the hand
  // another phone stored, where the eye goes next.
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "live") return;
    var live = document.getElementById("live");
    keepDraft();
    if (!live || !live.hasAttribute("data-refused-save")) return;
    var first = live.querySelector("[data-conflict]") || live.querySelector("[data-entry-errors]") ||
      live.querySelector("[data-missing]");
    if (first) first.scrollIntoView({ block: "start" });
  });

  // --- the phone at the table (issue 9 point 5) -----------------------------------------
  // The screen stays awake while a board is open (Screen Wake Lock, where the browser has
  // it). The lock is dropped by the browser when the page is hidden: take it again on return.
  function keepAwake() {
    if (!document.getElementById("board-live")) return;
    var root = document.documentElement;
    if (!navigator.wakeLock || !navigator.wakeLock.request) {
      root.setAttribute("data-wake-lock", "unavailable");
      return;
    }
    navigator.wakeLock.request("screen").then(function (lock) {
      root.setAttribute("data-wake-lock", "on");
      lock.addEventListener("release", function () { root.setAttribute("data-wake-lock", "off"); });
    }).catch(function () {
      root.setAttribute("data-wake-lock", "refused");
    });
  }
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) keepAwake();
  });

  // The share links: the phone's share sheet where there is one, else the clipboard.
  function copyText(text) {
    if (navigator.clipboard && navigator.clipboard.writeText) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.className = "offscreen";
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      area.remove();
      if (ok) resolve(); else reject(new Error("copy"));
    });
  }

  function initShare(box) {
    var button = box.querySelector("[data-share-url]");
    var done = box.querySelector("[data-share-done]");
    if (!button) return;
    var canShare = typeof navigator.share === "function";
    button.textContent = button.getAttribute(canShare ? "data-label-share" : "data-label-copy");
    box.hidden = false;
    button.addEventListener("click", function () {
      var url = button.getAttribute("data-share-url");
      function said(text) { done.textContent = text; done.hidden = false; }
      if (canShare) {
        navigator.share({ title: button.getAttribute("data-share-title"), url: url }).catch(function (error) {
          // Cancelled by the player: nothing to say. Refused: fall back to copying.
          if (error && error.name === "AbortError") return;
          copyText(url).then(function () { said(button.getAttribute("data-said-copied")); });
        });
        return;
      }
      copyText(url).then(function () {
        said(button.getAttribute("data-said-copied"));
      }, function () {
        said(button.getAttribute("data-said-failed"));
      });
    });
  }

  // --- table presets (issue 19): one tap fills the options, which stay editable ---------------
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-preset]");
    var form = button && button.closest("form");
    if (!form) return;
    ["players", "reyes", "target", "real31", "perete"].forEach(function (name) {
      var value = button.getAttribute("data-preset-" + name);
      if (value === null) return;
      form.querySelectorAll('[name="' + name + '"]').forEach(function (input) {
        if (input.type === "radio") input.checked = input.value === value;
        else input.value = value;
      });
    });
    var box = form.querySelector("[data-options-box]");
    // What the tap chose is seen, and can be changed (who sits is seen already).
    if (box && !button.hasAttribute("data-preset-players")) box.open = true;
    form.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // --- the count read aloud ("Cantar el recuento", issue 19) --------------------------------
  // One tap speaks the recuento the server wrote (each [data-cantar-line] of the button's
  // [data-cantar-scope], in order) in the page's language with the phone's own voices: no
  // server, works offline, and no rule here. Without speech synthesis the button hides.
  function hasSpeech() {
    return "speechSynthesis" in window && typeof window.SpeechSynthesisUtterance === "function";
  }
  function showCantar() {
    document.querySelectorAll("[data-cantar]").forEach(function (button) {
      button.hidden = !hasSpeech();
    });
  }
  document.addEventListener("htmx:afterSwap", showCantar);
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-cantar]");
    if (!button || !hasSpeech()) return;
    var scope = button.closest("[data-cantar-scope]") || document;
    var lang = document.documentElement.lang || "es";
    var speech = window.speechSynthesis;
    speech.cancel();  // a second tap starts the count again, not twice over
    // The lines shown, word for word and in their order (issue 38.1).
    scope.querySelectorAll("[data-cantar-line]").forEach(function (line) {
      // The layout's white space folds; a French non-breaking space stays as written.
      var text = line.textContent.replace(/[ \t\n\r]+/g, " ").trim();
      if (!text) return;
      var utterance = new window.SpeechSynthesisUtterance(text);
      utterance.lang = lang;
      speech.speak(utterance);
    });
  });

  // What a page's own elements need once drawn: on load, and again when a save's answer
  // (the board) takes the place of the hand page's body.
  function initPage() {
    keepAwake();
    showCantar();
    document.querySelectorAll("[data-share-actions]").forEach(initShare);
    // The hand in progress first: the keypad starts at the first seat still to fill.
    document.querySelectorAll("form[data-draft]").forEach(initEntry);
    document.querySelectorAll("[data-card-picker]").forEach(initPicker);
    document.querySelectorAll("[data-setup]").forEach(initSetup);
    // The calculator: the bet buttons do it; the typed bets (the page without JS) fold away.
    document.querySelectorAll("[data-calc-typed][open]").forEach(function (typed) { typed.open = false; });
  }

  document.addEventListener("DOMContentLoaded", function () {
    initPage();
    restoreCalc();
    initOffline();
  });

  // A typed amount ("Otra cantidad", "N más") goes with its button, in the button's one
  // request (issue 38.5): its own change asks the server nothing. It asked before, and the
  // button's request then cut that one off, which reached the server without its body.
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input && input.name && /^a_/.test(input.name) && input.closest("form[hx-post]")) {
      event.stopPropagation();
    }
  }, true);

  // The saver's board (issue 38.4): the save's answer is the board, swapped into the body
  // with its address pushed; no new page, so the page's own set-up runs again here, the
  // hand page's entry is over, and the copy kept for the worker is this board's.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target !== document.body) return;
    var xhr = event.detail.xhr;
    if (xhr) sayShown({ get: function (name) { return xhr.getResponseHeader(name); } });
    entryForm = null;
    entryStart = "";
    leaving = false;
    initPage();
    watchNotes();
    showPending();
    keepPages(true);
    document.dispatchEvent(new CustomEvent("muscore:page"));
    // The next thing a player does: the next hand (issue 38.6: the focus was on <body>).
    var next = document.querySelector('[data-action="enter-hand"]') || document.querySelector("main h1");
    if (next) {
      if (!next.hasAttribute("tabindex") && next.tagName === "H1") next.setAttribute("tabindex", "-1");
      next.focus({ preventScroll: true });
    }
  });
})();
