// Bang! The Dice Game: the table drawn from a seat's (or the public) JSON, the dice chooser of a
// reroll, the how-to-play panel. Every text from the server goes in as text, never as HTML.
"use strict";

const BANG = { selected: new Set(), decision: null };

BANG.TITLE = "Bang! The Dice Game";
BANG.FACE_LABEL = { arrow: "arrow", dynamite: "dynamite", "1": "shoot 1", "2": "shoot 2", beer: "beer", gatling: "gatling" };
BANG.FACE_ICON = { arrow: "➶", dynamite: "✸", "1": "1", "2": "2", beer: "♨", gatling: "⁂" };
BANG.ROLE_ICON = { sheriff: "★", deputy: "☆", outlaw: "☠", renegade: "◆" };
BANG.TARGET_BASE = 32;
BANG.YES = 40;

function bangSeatOf(s, decider, id) {
  return (decider + id - BANG.TARGET_BASE) % s.num_players;
}

function bangDie(parent, die, opts) {
  const box = G.add(parent, "div", "die face-" + die.face.replace(/^([12])$/, "n$1"));
  G.add(box, "div", "icon", BANG.FACE_ICON[die.face] || die.face);
  G.add(box, "div", "flabel", BANG.FACE_LABEL[die.face] || die.face);
  let state = die.locked ? "locked" : (die.kept ? "kept" : "rolled");
  if (opts && opts.selected) state = "reroll";
  box.classList.add(state);
  G.add(box, "div", "dstate", state === "reroll" ? "roll again" : state);
  box.title = "die " + (die.die + 1) + ": " + die.face + (die.locked ? " (dynamite stays on the table)" : "");
  box.dataset.die = String(die.die);
  return box;
}

function bangRole(parent, p, s) {
  const role = p.role;
  const badge = G.add(parent, "span", "role " + (role || "hidden"), role ? BANG.ROLE_ICON[role] + " " + role : "role hidden");
  badge.title = role ? (p.seat === s.seat ? "your role" : (p.sheriff ? "the Sheriff is face up" : "revealed")) : "you do not know this role";
}

function bangLife(parent, p) {
  const box = G.add(parent, "div", "life");
  const bar = G.add(box, "div", "lifebar");
  for (let i = 0; i < p.max_life; i++) G.add(bar, "span", i < p.life ? "pip on" : "pip");
  G.add(box, "span", "lifetext", "life " + p.life + "/" + p.max_life);
}

function bangSeat(s, p, targets) {
  const box = G.el("section", "bseat");
  if (p.seat === s.seat) box.classList.add("me");
  if (!p.alive) box.classList.add("dead");
  if (p.turn) box.classList.add("turn");
  if (p.deciding && !s.game_over) box.classList.add("deciding");
  if (s.final && s.final.winners.indexOf(p.seat) >= 0) box.classList.add("winner");
  box.dataset.seat = String(p.seat);
  const head = G.add(box, "div", "bhead");
  G.add(head, "span", "pname", p.name + (p.seat === s.seat ? " (you)" : ""));
  if (p.turn) G.add(head, "span", "turnmark", "turn");
  const ch = G.add(box, "div", "character", p.character);
  ch.title = p.ability;
  G.add(box, "div", "ability", p.ability);
  const row = G.add(box, "div", "brow");
  bangRole(row, p, s);
  const arrows = G.add(row, "span", "arrows", "➶ " + p.arrows);
  arrows.title = p.arrows + " arrow(s): a life point each when the Indians attack";
  if (p.alive) bangLife(box, p);
  else G.add(box, "div", "out", "eliminated");
  const target = targets[p.seat];
  if (target) {
    box.classList.add("target");
    box.tabIndex = 0;
    box.setAttribute("role", "button");
    box.title = target.meaning;
    // the menu's words without the seat's description, which the card shows
    const hint = G.add(box, "div", "targethint", target.meaning.split(" (")[0]);
    hint.dataset.id = String(target.id);
    const go = function () { BANG.choose(target.id); };
    box.addEventListener("click", go);
    box.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); go(); }
    });
  }
  return box;
}

// the seats clockwise around an ellipse, the looking seat at the bottom
function placeSeats(ring, s, targets) {
  const n = s.num_players;
  const first = s.seat === null ? 0 : s.seat;
  for (let k = 0; k < n; k++) {
    const p = s.players[(first + k) % n];
    const seat = bangSeat(s, p, targets);
    const angle = Math.PI * 2 * k / n;  // clockwise from the bottom
    seat.style.left = (50 - 41 * Math.sin(angle)).toFixed(2) + "%";
    seat.style.top = (50 + 38 * Math.cos(angle)).toFixed(2) + "%";
    ring.appendChild(seat);
  }
}

function bangCentre(ring, s) {
  const felt = G.add(ring, "div", "felt");
  const turn = s.players[s.turn_player];
  G.add(felt, "div", "turninfo", s.game_over ? "Game over" : "Turn " + s.turn + ": " + turn.name + " (" + turn.character + ")");
  const dice = G.add(felt, "div", "dice");
  const choosing = s.acting && s.decision && s.decision.kind === "reroll";
  if (!s.dice.length) G.add(dice, "div", "small", "no dice rolled yet");
  for (const die of s.dice) {
    const node = bangDie(dice, die, { selected: choosing && BANG.selected.has(die.die) });
    if (choosing && !die.locked) {
      node.classList.add("choosable");
      node.tabIndex = 0;
      node.setAttribute("role", "button");
      node.title += ": click to roll it again (or keep it)";
      const toggle = function () { BANG.toggle(die.die); };
      node.addEventListener("click", toggle);
      node.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); toggle(); }
      });
    }
  }
  const info = G.add(felt, "div", "rollinfo");
  G.add(info, "span", "", "rolls " + s.rolls_done);
  G.add(info, "span", "rerolls", "rerolls left " + s.rerolls_left);
  const pile = G.add(info, "span", "pile", "arrow pile ");
  const quiver = G.add(pile, "span", "quiver");
  for (let i = 0; i < 9; i++) G.add(quiver, "span", i < s.arrow_pile ? "arrow on" : "arrow", "➶");
  G.add(pile, "span", "", " " + s.arrow_pile + "/9");
  pile.title = "when the last arrow is taken, the Indians attack";
}

function bangFinal(root, s) {
  if (!s.final) return;
  const box = G.add(root, "section", "final");
  G.add(box, "h2", "", "Game over");
  G.add(box, "p", "big", s.prompt);
  const table = G.add(box, "table");
  const head = G.add(table, "tr");
  for (const t of ["player", "character", "role", "life", "result"]) G.add(head, "th", "", t);
  s.players.forEach(function (p) {
    const won = s.final.winners.indexOf(p.seat) >= 0;
    const row = G.add(table, "tr", won ? "winner" : "");
    G.add(row, "td", "", p.name + (won ? " ★" : ""));
    G.add(row, "td", "", p.character);
    G.add(row, "td", "", s.final.roles[p.seat]);
    G.add(row, "td", "", p.alive ? p.life + "/" + p.max_life : "eliminated");
    G.add(row, "td", "", won ? "wins" : "loses");
  });
}

// the seat's own goal over the table, and whom it waits for
function bangBar(root, s) {
  const bar = G.add(root, "div", "infobar");
  G.add(bar, "span", "big", s.game_over ? "Game over" : "Turn " + s.turn);
  if (s.goal) G.add(bar, "span", "goal", s.goal);
  if (s.decision && !s.game_over) {
    const who = s.decision.player === s.seat ? "your move" : s.players[s.decision.player].name + " is deciding";
    G.add(bar, "span", "deciding", who).title = s.decision.question;
  }
  if (s.seat !== null) G.add(bar, "span", "you", "you are p" + s.seat);
  else G.add(bar, "span", "you", "public view");
}

G.renderBang = function (root, s) {
  const key = s.decision_id || "";
  if (BANG.decision !== key) { BANG.selected = new Set(); BANG.decision = key; }
  root.replaceChildren();
  bangBar(root, s);
  bangFinal(root, s);
  const targets = {};
  if (s.acting && s.decision) {
    for (const item of s.menu) {
      if (item.id >= BANG.TARGET_BASE && item.id < BANG.YES) targets[bangSeatOf(s, s.decision.player, item.id)] = item;
    }
  }
  const ring = G.add(root, "div", "bang-table n" + s.num_players);
  bangCentre(ring, s);
  placeSeats(ring, s, targets);
};

// the reroll chooser in the decision panel: the selected dice, roll them or stop
G.renderBangMenu = function (menu, s) {
  const ids = new Set(s.menu.map(function (m) { return m.id; }));
  let mask = 0;
  BANG.selected.forEach(function (d) { mask |= 1 << d; });
  G.add(menu, "p", "small", "Click the dice on the table you want to roll again; the others are kept (dynamite stays).");
  const roll = G.add(menu, "button", "action primary", mask ? "Roll the " + BANG.selected.size + " selected dice again" : "Select dice to roll again");
  roll.id = "reroll-selected";
  roll.disabled = !mask || !ids.has(mask);
  roll.addEventListener("click", function () { BANG.choose(mask); });
  const stop = s.menu.find(function (m) { return m.id === 0; });
  const done = G.add(menu, "button", "action", stop.meaning);
  done.id = "stop-rolling";
  done.addEventListener("click", function () { BANG.choose(0); });
  const all = G.add(menu, "details", "allchoices");
  G.add(all, "summary", "small", "every choice as a list (" + s.menu.length + ")");
  for (const item of s.menu) {
    const button = G.add(all, "button", "action");
    button.dataset.id = String(item.id);
    G.add(button, "span", "meaning", item.meaning);
    G.add(button, "span", "name", item.name);
    button.addEventListener("click", function () { BANG.choose(item.id); });
  }
};

// the how-to-play panel, from the lobby options (the dice faces, the roles, the 16 characters)
G.renderBangHelp = function (help) {
  const box = document.getElementById("bang-help-body");
  if (!box || box.childElementCount) return;
  G.add(box, "p", "", "Each role wins its own way (Roles, below). On your turn roll the five dice, then up to two more times roll any of them again (dynamite stays). Then the dice act: three dynamite cost you a life point, each 1 and 2 hits a player at that distance, each beer heals a player, three Gatlings hit everyone else. Arrows are taken as they are rolled; the last one of the pile sets off the Indians. At 0 life a player is out and shows his role.");
  G.add(box, "h3", "", "Dice faces");
  const faces = G.add(box, "ul", "small");
  for (const f of help.faces) {
    const li = G.add(faces, "li");
    G.add(li, "b", "", BANG.FACE_ICON[f.face] + " " + BANG.FACE_LABEL[f.face] + ": ");
    li.appendChild(document.createTextNode(f.text));
  }
  G.add(box, "h3", "", "Roles");
  const roles = G.add(box, "ul", "small");
  for (const r of help.roles) {
    const li = G.add(roles, "li");
    G.add(li, "b", "", BANG.ROLE_ICON[r.role] + " " + r.role + ": ");
    li.appendChild(document.createTextNode(r.text));
  }
  G.add(box, "h3", "", "Characters");
  const chars = G.add(box, "ul", "small characters");
  for (const c of help.characters) {
    const li = G.add(chars, "li");
    G.add(li, "b", "", c.name + " (" + c.life + " life): ");
    li.appendChild(document.createTextNode(c.ability));
  }
};

G.renderBangEvents = function (list, events) {
  list.replaceChildren();
  const start = Math.max(0, events.length - 300);
  events.slice(start).forEach(function (line) {
    const item = G.add(list, "li", "", line.replace(/^-- /, ""));
    if (line.indexOf("-- turn") === 0) item.className = "dayline";
    if (/eliminated|game over/.test(line)) item.classList.add("bluff");
  });
  list.scrollTop = list.scrollHeight;
};

BANG.toggle = function (die) {
  if (BANG.selected.has(die)) BANG.selected.delete(die); else BANG.selected.add(die);
  if (BANG.redraw) BANG.redraw();
};
