// The keyboard and the screen reader (issue 30 points 1 and 2): focus stays where the
// player is when htmx draws part of the page again, the skip links go straight to their
// target, Enter in a card field goes to the next seat, and each card field is described
// by its cards as words. No rule of the game here: only where the focus goes and words
// the server wrote. Everything works without this file (the page is then a plain form).
(function () {
  "use strict";

  var FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), ' +
    'select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

  function visible(element) {
    return !!(element && element.isConnected && element.getClientRects().length &&
      !element.closest("[hidden]"));
  }

  function focusables(root) {
    return Array.prototype.filter.call(root.querySelectorAll(FOCUSABLE), visible);
  }

  function lost() {
    var active = document.activeElement;
    return !active || active === document.body || !active.isConnected;
  }

  // --- focus across a swap ---------------------------------------------------------------
  // What had the focus inside the part being replaced, described so that its new copy can
  // be found: its id, else its name and value (a bet button's act, a radio's choice), else
  // its place among the focusable controls of the nearest part with an id (a lance).
  var kept = null;

  function describe(element) {
    var scope = element.parentElement && element.parentElement.closest("[id]");
    var within = scope ? focusables(scope) : [];
    return {
      id: element.id || "",
      name: element.getAttribute("name") || "",
      value: element.getAttribute("value") || "",
      tag: element.tagName,
      scope: scope ? scope.id : "",
      index: within.indexOf(element),
    };
  }

  function byNameAndValue(what) {
    if (!what.name) return null;
    var found = null;
    document.querySelectorAll(what.tag.toLowerCase() + "[name]").forEach(function (element) {
      if (!found && element.getAttribute("name") === what.name &&
          (element.getAttribute("value") || "") === what.value && visible(element)) {
        found = element;
      }
    });
    return found;
  }

  // An undo is never where the focus lands by itself (issue 38.6: after "Quiero" the
  // focus was on "Deshacer el último paso", and a second Enter took the answer back).
  function isUndo(element) {
    var act = element.getAttribute("name") === "act" ? element.getAttribute("value") || "" : "";
    return /^(pop|clear):/.test(act);
  }

  // The next thing a player does after a lance is closed: the first control of the next
  // lance still open, else "Guardar".
  function nextStep(scope) {
    var lances = Array.prototype.slice.call(document.querySelectorAll("section[data-lance]"));
    for (var i = lances.indexOf(scope) + 1; i > 0 && i < lances.length; i++) {
      var controls = focusables(lances[i]).filter(function (e) { return !isUndo(e) && !e.matches("a[data-skip]"); });
      if (controls.length) return controls[0];
    }
    var save = document.getElementById("save-hand");
    return save && visible(save) ? save : null;
  }

  function find(what) {
    var same = what.id && document.getElementById(what.id);
    if (same && visible(same)) return same;
    var twin = byNameAndValue(what);
    if (twin) return twin;
    // Gone (the envido tapped: the lance now asks for quiero): the same place in the same
    // part, else its first control, else the nearest part still there; never an undo
    // (the lance closed: the next lance, or "Guardar").
    var scope = what.scope && document.getElementById(what.scope);
    if (!scope) return null;
    var within = focusables(scope).filter(function (e) { return !isUndo(e); });
    var found = null;
    if (what.index >= 0 && what.index < within.length && within[what.index].tagName === what.tag) {
      found = within[what.index];
    } else if (within.length) {
      found = within[0];
    }
    if (found && found.matches("a[data-skip]")) found = null;
    return found || nextStep(scope);
  }

  // Whatever had the focus when a swap begins (the main target or an out-of-band part may
  // remove it); put back after the swap only if the focus was lost on the way.
  document.addEventListener("htmx:beforeSwap", function () {
    var active = document.activeElement;
    kept = active && active !== document.body ? describe(active) : null;
  });

  // Put back as soon as the new part is in the page (htmx:afterSwap), not at the settle:
  // htmx ends the request (htmx:afterRequest) before it settles, 20 ms later, and a key
  // pressed in between (a quick Tab) left <body> with the focus, which the settle then saw
  // as not lost. The settle tries again only for a part not found at the swap.
  function restore(last) {
    var what = kept;
    if (!what) return;
    if (!lost()) {
      kept = null;
      return;
    }
    var element = find(what);
    if (element) {
      element.focus({ preventScroll: false });
      kept = null;
    } else if (last) {
      kept = null;
    }
  }
  document.addEventListener("htmx:afterSwap", function () { restore(false); });
  document.addEventListener("htmx:afterSettle", function () { restore(true); });

  // --- skip links ------------------------------------------------------------------------
  // A skip link moves the focus itself (a fragment alone only scrolls in some browsers).
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-skip]");
    if (!link) return;
    var target = document.getElementById(link.getAttribute("href").slice(1));
    if (!target) return;
    if (!visible(target)) {
      var inside = focusables(target);
      target = inside.length ? inside[0] : target;
    }
    event.preventDefault();
    if (!target.hasAttribute("tabindex") && !target.matches(FOCUSABLE)) {
      target.setAttribute("tabindex", "-1");
    }
    target.focus();
    target.scrollIntoView({ block: "center" });
  });

  // --- where the focus starts after a step that opens a page ------------------------------
  // Issue 38.6: after "Anotar mano" (or "Corregir") the focus was on <body>. Reached by
  // the keyboard (a click of detail 0: Enter on the link), the hand page starts on the
  // first seat's cards still to enter, the next thing a player does; reached by a thumb,
  // on its heading (a field focused would open the phone's keyboard over the keypad).
  var BY_KEYS = "muscore:keyboard";
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href]");
    if (!link || event.detail !== 0) return;
    try { window.sessionStorage.setItem(BY_KEYS, "1"); } catch (e) { /* no note: a heading */ }
  }, true);

  function startFocus() {
    var keys = false;
    try {
      keys = window.sessionStorage.getItem(BY_KEYS) === "1";
      window.sessionStorage.removeItem(BY_KEYS);
    } catch (e) { keys = false; }
    var form = document.querySelector("form#entry");
    if (!form || !lost()) return;
    var fields = Array.prototype.filter.call(form.querySelectorAll("[data-picker-input]"), visible);
    var empty = fields.filter(function (field) { return !field.value.trim(); });
    var heading = document.querySelector("main h1");
    var target = keys && fields.length ? (empty[0] || fields[0]) : heading;
    if (!target) return;
    if (target === heading && !heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: target === heading });
  }

  // --- the card fields -------------------------------------------------------------------
  // Each field is described by its cards as words ("rey, rey, cinco, cuatro"), from the
  // keypad's words (data-word, in the page's language): a screen reader hears the hand,
  // not "R R 5 4".
  function cardWords(picker) {
    var words = {};
    picker.querySelectorAll("[data-card][data-word]").forEach(function (key) {
      words[key.getAttribute("data-card")] = key.getAttribute("data-word");
    });
    return words;
  }

  var ALIASES = { A: "1", "10": "S", "11": "C", "12": "R" };

  function tokens(text) {
    var out = [];
    text.toUpperCase().split(/[\s,]+/).filter(Boolean).forEach(function (token) {
      if (ALIASES[token]) out.push(ALIASES[token]);
      else if (token.length > 1 && /^[1-7SCRA]+$/.test(token)) {
        token.split("").forEach(function (ch) { out.push(ALIASES[ch] || ch); });
      } else out.push(token);
    });
    return out;
  }

  function describeCards(picker, input) {
    var box = document.getElementById(input.getAttribute("aria-describedby") || "");
    if (!box) return;
    var words = cardWords(picker);
    box.textContent = tokens(input.value).map(function (card) { return words[card] || card; }).join(", ");
  }

  function initPicker(picker) {
    var inputs = Array.prototype.slice.call(picker.querySelectorAll("[data-picker-input]"));
    inputs.forEach(function (input, i) {
      input.addEventListener("input", function () { describeCards(picker, input); });
      input.addEventListener("change", function () { describeCards(picker, input); });
      // Enter is the next seat, never the form's first button (an envido): after the last
      // seat, the first control after the cards.
      input.addEventListener("keydown", function (event) {
        if (event.key !== "Enter" || event.isComposing) return;
        event.preventDefault();
        input.dispatchEvent(new Event("change", { bubbles: true }));
        if (i + 1 < inputs.length) {
          inputs[i + 1].focus();
          return;
        }
        var live = document.getElementById("live") || document.getElementById("result");
        var next = live ? focusables(live)[0] : null;
        if (next) next.focus();
      });
    });
  }

  // --- the presets: toggle buttons ----------------------------------------------------
  // A preset is chosen (aria-pressed) while the form's options are the ones it fills:
  // said to a screen reader and shown; a changed option unchooses it (issue 30.6).
  var PRESET_FIELDS = ["players", "reyes", "target", "real31", "perete"];
  function fieldValue(form, name) {
    var checked = form.querySelector('input[name="' + name + '"]:checked');
    if (checked) return checked.value;
    var input = form.querySelector('[name="' + name + '"]:not([type="radio"])');
    return input ? String(input.value) : null;
  }
  function syncPresets(form) {
    form.querySelectorAll("[data-preset]").forEach(function (button) {
      var chosen = PRESET_FIELDS.every(function (name) {
        var wanted = button.getAttribute("data-preset-" + name);
        var value = fieldValue(form, name);
        return wanted === null || value === null || value === wanted;
      });
      button.setAttribute("aria-pressed", chosen ? "true" : "false");
    });
  }
  function syncAllPresets() {
    document.querySelectorAll("form").forEach(function (form) {
      if (form.querySelector("[data-preset]")) syncPresets(form);
    });
  }
  document.addEventListener("change", syncAllPresets);
  document.addEventListener("input", syncAllPresets);

  // --- pages that need the signal (the calculator, the lector) -------------------------
  // Their answer is the server's (the engine): without signal a tap cannot be answered,
  // and the page says so instead of doing nothing (issue 30.3); the next answer hides it.
  function needsSignal(shown) {
    document.querySelectorAll("[data-needs-signal]").forEach(function (note) { note.hidden = !shown; });
  }
  document.addEventListener("htmx:sendError", function () { needsSignal(true); });
  // Said as soon as the signal goes (or the page is opened without it, from the
  // worker's copy), not only after a tap that came to nothing.
  window.addEventListener("offline", function () { needsSignal(true); });
  window.addEventListener("online", function () { needsSignal(false); });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status > 0) needsSignal(false);
  });

  function initPage() {
    document.querySelectorAll("[data-card-picker]").forEach(initPicker);
    syncAllPresets();
    if (navigator.onLine === false) needsSignal(true);
  }
  document.addEventListener("DOMContentLoaded", function () { initPage(); startFocus(); });
  // A page drawn in place of another (muscore.js: the saver's board, issue 38.4).
  document.addEventListener("muscore:page", initPage);
})();
