// The home page: start a game against chosen bots, open a game record in the replayer.
"use strict";

(function () {
  let options = null;
  const seats = document.getElementById("seats");
  const players = document.getElementById("players");
  const gameSelect = document.getElementById("game");
  const links = document.getElementById("links");

  // the chosen game's entry of the options: its players, its bots
  function chosen() {
    return options.games.find(function (g) { return g.name === gameSelect.value; });
  }

  // the player counts of the chosen game, and its own settings shown or hidden
  function gameRows() {
    const game = chosen();
    players.replaceChildren();
    for (let n = game.players[0]; n <= game.players[1]; n++) {
      const option = G.add(players, "option", "", n);
      option.value = String(n);
    }
    players.value = String(game.default_players);
    document.getElementById("granujas-options").hidden = game.name !== "granujas";
    seats.replaceChildren();  // another game's bots
    seatRows();
  }

  function seatRows() {
    const n = Number(players.value);
    const previous = Array.from(seats.querySelectorAll("select")).map(function (s) { return s.value; });
    seats.replaceChildren();
    for (let i = 0; i < n; i++) {
      const label = G.add(seats, "label", "seat", "p" + i + " ");
      const select = G.add(label, "select");
      select.id = "seat-" + i;
      for (const name of chosen().seats) {
        const option = G.add(select, "option", "", name);
        option.value = name;
      }
      select.value = previous[i] || (i === 0 ? options.human : chosen().default_bot);
      select.addEventListener("change", seedRule);
    }
    seedRule();
  }

  // a seed chosen by one player would tell that player every hidden card of the others: the
  // server accepts one only with a single human seat
  function seedRule() {
    const humans = Array.from(seats.querySelectorAll("select")).filter(function (s) { return s.value === options.human; }).length;
    const seed = document.getElementById("seed");
    seed.disabled = humans > 1;
    if (humans > 1) seed.value = "";
    seed.placeholder = humans > 1 ? "secret (several humans)" : "random";
  }

  async function openReplay(body) {
    G.showError("");
    try {
      const r = await G.api("POST", "/api/replays", body);
      window.location.href = "/replay#replay=" + encodeURIComponent(r.replay);
    } catch (e) {
      G.showError(e.message);
    }
  }

  document.getElementById("new-game").addEventListener("submit", async function (event) {
    event.preventDefault();
    G.showError("");
    const seed = document.getElementById("seed").value;
    const body = {
      seats: Array.from(seats.querySelectorAll("select")).map(function (s) { return s.value; }),
      seed: seed === "" ? null : Number(seed),
      public: document.getElementById("public").checked,
    };
    if (gameSelect.value === "granujas") {
      body.length = document.getElementById("length").value;
      body.strategy_cards = document.getElementById("strategy").checked;
    } else {
      body.game = gameSelect.value;
    }
    try {
      const game = await G.api("POST", "/api/games", body);
      const humans = game.seats.filter(function (s) { return s.human; });
      if (humans.length === 1) {
        window.location.href = humans[0].link;
        return;
      }
      links.replaceChildren();
      G.add(links, "p", "", "One link per human seat: open each in its own browser (keep them secret).");
      for (const s of humans) {
        const a = G.add(G.add(links, "p"), "a", "", s.name);
        a.href = s.link;
      }
    } catch (e) {
      G.showError(e.message);
    }
  });

  document.getElementById("record-file").addEventListener("change", async function (event) {
    const file = event.target.files[0];
    if (file) openReplay({ record: await file.text() });
  });

  players.addEventListener("change", seatRows);
  gameSelect.addEventListener("change", gameRows);

  (async function () {
    try {
      options = await G.api("GET", "/api/options");
      gameSelect.replaceChildren();
      for (const game of options.games) {
        const option = G.add(gameSelect, "option", "", game.title + " (" + game.players[0] + "-" + game.players[1] + " players)");
        option.value = game.name;
      }
      gameSelect.value = "granujas";
      gameRows();
      const list = document.getElementById("records");
      for (const name of (await G.api("GET", "/api/records")).records) {
        const button = G.add(G.add(list, "li"), "button", "record", name);
        button.addEventListener("click", function () { openReplay({ file: name }); });
      }
      G.rendered();
    } catch (e) {
      G.showError(e.message);
    }
  })();
})();
