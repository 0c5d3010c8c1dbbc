// One human seat's table: draw it, offer the legal actions as buttons, poll while others decide.
"use strict";

(function () {
  const params = G.hashParams();
  const gameId = params.get("game");
  const token = params.get("token");
  const table = document.getElementById("table");
  const menu = document.getElementById("menu");
  const prompt = document.getElementById("prompt");
  const events = document.getElementById("events");
  const after = document.getElementById("after");
  const autoPass = document.getElementById("auto-pass");
  let timer = null;
  let last = "";
  let current = null;
  let bangHelp = false;

  function url(suffix) { return "/api/games/" + encodeURIComponent(gameId) + (suffix || ""); }

  // Bang! The Dice Game: its title, its help panel (from the lobby options), no challenge windows
  async function bangPage() {
    if (bangHelp) return;
    bangHelp = true;
    document.title = BANG.TITLE + ": game";
    document.querySelector("header h1 a").textContent = BANG.TITLE;
    document.getElementById("help").hidden = true;
    document.getElementById("bang-help").hidden = false;
    const options = await G.api("GET", "/api/options");
    const game = options.games.find(function (g) { return g.name === "bang-dice"; });
    G.renderBangHelp(game.help);
  }

  function draw(s) {
    const text = JSON.stringify(s);
    if (text === last) return;  // nothing new since the last poll
    last = text;
    current = s;
    const bang = s.kind === "bang-dice";
    if (bang) {
      bangPage().catch(function (e) { G.showError(e.message); });
      G.renderBang(table, s);
      G.renderBangEvents(events, s.events);
    } else {
      G.renderTable(table, s);
      G.renderEvents(events, s.events);
      G.renderHelp(s);
    }
    G.renderNotices(s.notices);
    prompt.textContent = s.prompt;
    autoPass.checked = s.auto_pass;
    document.getElementById("auto-pass-label").hidden = s.game_over || bang;
    menu.replaceChildren();
    menu.classList.toggle("bang", bang);
    if (bang && s.acting && s.decision.kind === "reroll") G.renderBangMenu(menu, s);
    else {
      for (const item of s.menu) {
        const button = G.add(menu, "button", "action");
        button.dataset.id = String(item.id);
        G.add(button, "span", "meaning", item.meaning);
        G.add(button, "span", "name", item.name);
        button.addEventListener("click", function () { choose(item.id, s.decision_id); });
      }
    }
    document.getElementById("status").textContent =
      s.game_over ? "game over" : (s.acting ? "your move" : "waiting for " + s.players[s.decision.player].name);
    document.body.dataset.phase = s.game_over ? "over" : (s.acting ? "acting" : "waiting");
    after.hidden = !s.game_over;
    G.rendered();
  }

  function poll(s) {
    if (!s.game_over && !s.acting) timer = setTimeout(load, 1500);
  }

  async function load() {
    clearTimeout(timer);
    try {
      const s = await G.api("GET", url(), undefined, token);
      draw(s);
      poll(s);
    } catch (e) {
      G.showError(e.message);
      timer = setTimeout(load, 3000);
    }
  }

  async function send(suffix, body) {
    clearTimeout(timer);
    for (const b of menu.querySelectorAll("button")) b.disabled = true;
    G.showError("");
    try {
      const s = await G.api("POST", url(suffix), body, token);
      draw(s);
      poll(s);
    } catch (e) {
      G.showError(e.message);
      last = "";
      load();
    }
  }

  function choose(id, decisionId) { send("/actions", { action: id, decision: decisionId }); }

  BANG.choose = function (id) { if (current) choose(id, current.decision_id); };
  BANG.redraw = function () { last = ""; if (current) draw(current); };

  autoPass.addEventListener("change", function () {
    send("/settings", { auto_pass: autoPass.checked });
  });

  document.getElementById("download").addEventListener("click", async function () {
    try {
      const response = await fetch(url("/record"), { headers: { "X-Seat-Token": token } });
      if (!response.ok) throw new Error((await response.json()).error);
      const link = G.el("a");
      link.href = URL.createObjectURL(await response.blob());
      link.download = (current && current.kind === "bang-dice" ? "bang-dice-" : "granujas-") + gameId + ".json";
      document.body.appendChild(link);
      link.click();
      link.remove();
    } catch (e) {
      G.showError(e.message);
    }
  });

  document.getElementById("replay").addEventListener("click", function () {
    window.location.href = "/replay#game=" + encodeURIComponent(gameId) + "&token=" + encodeURIComponent(token);
  });

  if (!gameId || !token) {
    G.showError("This page needs a seat link: /play#game=ID&token=TOKEN (start a game on the home page).");
  } else {
    load();
  }
})();
