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
    var etag = xhr.getResponseHeader("ETag");
    if (xhr.status === 304 || (etag && etag === elt.getAttribute("data-etag"))) {
      event.detail.shouldSwap = false;
    }
  });
  document.addEventListener("visibilitychange", function () {
    var live = document.getElementById("board-live");
    if (!document.hidden && live && window.htmx) window.htmx.trigger(live, "refresh");
  });

  function cardsOf(input) {
    return input.value.trim().toUpperCase().split(/[\s,]+/).filter(Boolean);
  }

  function initPicker(root) {
    var keypad = root.querySelector("[data-keypad]");
    var rows = Array.prototype.slice.call(root.querySelectorAll("[data-picker-seat]"));
    var inputs = rows.map(function (row) { return row.querySelector("[data-picker-input]"); });
    if (!keypad || !rows.length) return;
    keypad.hidden = false;
    inputs.forEach(function (input) {
      // The keypad replaces the phone keyboard, which would cover half the table.
      input.readOnly = true;
      input.setAttribute("inputmode", "none");
    });
    var active = 0;

    function firstOpen(from) {
      for (var k = 0; k < rows.length; k++) {
        var i = (from + k) % rows.length;
        if (cardsOf(inputs[i]).length < 4) return i;
      }
      return -1;
    }

    function seatChanged(i) {
      var seat = rows[i].getAttribute("data-picker-seat");
      var jugada = document.querySelector('[data-jugada-seat="' + seat + '"]');
      if (jugada) jugada.hidden = cardsOf(inputs[i]).length === 4;
      var section = document.querySelector("[data-jugadas]");
      if (section) {
        // Nothing left to ask when every player showed his cards.
        section.hidden = !section.querySelector("[data-jugada-seat]:not([hidden])");
      }
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
    }

    rows.forEach(function (row, i) {
      row.addEventListener("click", function () { active = i; render(); });
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
      render();
    });
    var start = firstOpen(0);
    active = start < 0 ? 0 : start;
    render();
  }

  function initSetup(form) {
    function sync() {
      var checked = form.querySelector('input[name="players"]:checked');
      var six = checked && checked.value === "6";
      form.querySelectorAll(".six-only").forEach(function (row) { row.hidden = !six; });
      form.querySelectorAll('input[name="mano"]').forEach(function (radio) {
        if (radio.value === "4" || radio.value === "5") radio.closest("label").hidden = !six;
      });
    }
    form.addEventListener("change", sync);
    sync();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-card-picker]").forEach(initPicker);
    document.querySelectorAll("[data-setup]").forEach(initSetup);
  });
})();
