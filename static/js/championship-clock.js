// The championship hall's round clock: counts down to each group's data-deadline (ISO time
// from the server) and, past it, says so and flags the group's tables still playing.
(function () {
  "use strict";
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-deadline]").forEach(function (clock) {
      var left = Math.round((Date.parse(clock.dataset.deadline) - now) / 1000);
      if (left <= 0) {
        clock.textContent = clock.dataset.lateText;
        clock.classList.add("late");
        var group = clock.closest("[data-group]");
        if (group) {
          group.querySelectorAll(".tv-matches li").forEach(function (li) {
            if (!li.querySelector("strong")) { li.classList.add("late"); }
          });
        }
      } else {
        clock.textContent = Math.floor(left / 60) + ":" + pad(left % 60);
      }
    });
  }
  tick();
  setInterval(tick, 1000);
  // A new live part (a poll brought a result or a clock started) shows its time at once.
  document.addEventListener("htmx:afterSwap", tick);
})();
