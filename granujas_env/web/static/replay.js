// Step through a game record forwards and backwards, from the public view or one seat's.
"use strict";

(function () {
  const table = document.getElementById("table");
  const events = document.getElementById("events");
  const viewSelect = document.getElementById("view");
  const slider = document.getElementById("slider");
  let replayId = null;
  let step = 0;
  let steps = 0;
  let loading = null;

  async function show(k) {
    k = Math.max(0, Math.min(steps, k));
    const wanted = k + "/" + viewSelect.value;
    loading = wanted;
    try {
      const s = await G.api("GET", "/api/replays/" + encodeURIComponent(replayId) + "/steps/" + k +
        "?view=" + encodeURIComponent(viewSelect.value));
      if (loading !== wanted) return;  // a later click already asked for another step
      step = k;
      if (s.kind === "bang-dice") {
        G.renderBang(table, s);
        G.renderBangEvents(events, s.events);
      } else {
        G.renderTable(table, s);
        G.renderEvents(events, s.events);
      }
      document.getElementById("step").textContent = String(step);
      document.getElementById("action").textContent = s.last_action ? "last: " + s.last_action : "start of the game";
      document.getElementById("status").textContent = "replay, step " + step + " of " + steps;
      slider.value = String(step);
      document.body.dataset.step = String(step);
      G.showError("");
      G.rendered();
    } catch (e) {
      G.showError(e.message);
    }
  }

  async function start() {
    const params = G.hashParams();
    replayId = params.get("replay");
    if (!replayId && params.get("game")) {
      const r = await G.api("POST", "/api/replays", { game: params.get("game"), token: params.get("token") });
      replayId = r.replay;
      history.replaceState(null, "", "/replay#replay=" + encodeURIComponent(replayId));
    }
    if (!replayId) throw new Error("This page needs a replay: open a record on the home page.");
    const first = await G.api("GET", "/api/replays/" + encodeURIComponent(replayId) + "/steps/0");
    steps = first.steps;
    if (first.kind === "bang-dice") {
      document.title = BANG.TITLE + ": replay";
      document.querySelector("header h1 a").textContent = BANG.TITLE;
    }
    document.getElementById("seed").textContent = "seed " + first.seed + " (" + first.seed_source + ")";
    document.getElementById("steps").textContent = String(steps);
    slider.max = String(steps);
    first.players.forEach(function (p) {
      const option = G.add(viewSelect, "option", "", p.name + " (seat view)");
      option.value = String(p.seat);
    });
    await show(0);
  }

  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("back").addEventListener("click", function () { show(step - 1); });
  document.getElementById("forward").addEventListener("click", function () { show(step + 1); });
  document.getElementById("last").addEventListener("click", function () { show(steps); });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  viewSelect.addEventListener("change", function () { show(step); });
  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight") show(step + 1);
    if (event.key === "ArrowLeft") show(step - 1);
  });

  start().catch(function (e) { G.showError(e.message); });
})();
