// The share button of a round's card (templates/clubs/tv_share.html). It fetches the
// card's PNG and text from the server, then gives both to the phone's share sheet
// (navigator.share with the file, when the browser can share files); otherwise it
// downloads the PNG, copies the text and shows it to copy by hand. No library; the
// CSP forbids inline script, so this file finds its buttons by data- attributes.
(function () {
  "use strict";
  // A page with two cards (a round's and a night's) includes this file twice: one
  // listener is enough.
  if (window.muscoreShareCard) return;
  window.muscoreShareCard = true;

  function say(box, key, text) {
    var status = box.querySelector("[data-share-status]");
    status.textContent = box.getAttribute("data-msg-" + key) || "";
    status.hidden = false;
    var area = box.querySelector("[data-share-text]");
    if (text !== undefined) {
      area.value = text;
      area.hidden = false;
    }
  }

  function download(blob, name) {
    var url = URL.createObjectURL(blob);
    var a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    window.setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
  }

  function copy(text) {
    if (!navigator.clipboard || !navigator.clipboard.writeText) return Promise.resolve(false);
    return navigator.clipboard.writeText(text).then(
      function () { return true; }, function () { return false; });
  }

  function share(box) {
    var button = box.querySelector("[data-share-button]");
    var name = (box.getAttribute("data-file") || "tarjeta") + ".png";
    button.disabled = true;
    box.setAttribute("data-busy", "1");
    var image = fetch(box.getAttribute("data-png"), { credentials: "same-origin" }).then(function (r) {
      if (!r.ok || r.headers.get("Content-Type") !== "image/png") throw new Error("png " + r.status);
      return r.blob();
    });
    var words = fetch(box.getAttribute("data-txt"), { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("txt " + r.status);
      return r.text();
    });
    return Promise.all([image, words]).then(function (got) {
      var blob = got[0];
      var text = got[1];
      var file = new File([blob], name, { type: "image/png" });
      var data = { files: [file], text: text, title: box.getAttribute("data-title") || "" };
      if (navigator.share && navigator.canShare && navigator.canShare(data)) {
        return navigator.share(data).then(function () { say(box, "shared", text); }, function (error) {
          // Closing the share sheet is not a failure; anything else falls back.
          if (error && error.name === "AbortError") return;
          download(blob, name);
          return copy(text).then(function (ok) { say(box, ok ? "downloaded" : "downloaded-nocopy", text); });
        });
      }
      download(blob, name);
      return copy(text).then(function (ok) { say(box, ok ? "downloaded" : "downloaded-nocopy", text); });
    }).catch(function () {
      say(box, "failed");
    }).then(function () {
      button.disabled = false;
      box.removeAttribute("data-busy");
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-share-button]");
    if (!button) return;
    var box = button.closest("[data-share-card]");
    if (box) share(box);
  });
})();
