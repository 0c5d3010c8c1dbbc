// Shared by the pages: the JSON API and the drawing of the table from a seat's (or the public) JSON.
// Every text from the server goes into the page as text (textContent), never as HTML.
"use strict";

const G = {};

G.el = function (tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
};

G.add = function (parent, tag, className, text) {
  const node = G.el(tag, className, text);
  parent.appendChild(node);
  return node;
};

G.hashParams = function () {
  return new URLSearchParams(window.location.hash.slice(1));
};

// fetch JSON; a refusal throws an Error carrying the server's message
G.api = async function (method, url, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  const response = await fetch(url, {
    method: method,
    headers: headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try { data = JSON.parse(text); } catch (e) { data = null; }
  if (!response.ok) {
    throw new Error((data && data.error) || (response.status + " " + response.statusText));
  }
  return data;
};

G.showError = function (message) {
  const node = document.getElementById("error");
  if (node) node.textContent = message || "";
};

function seatClass(seat) { return "p" + seat; }

function granuja(g, extra) {
  const card = G.el("div", "granuja");
  if (!g) {
    card.classList.add("empty");
    card.textContent = extra || "empty";
    return card;
  }
  card.classList.add("colour-" + g.colour);
  if (g.used) card.classList.add("used");
  card.title = g.text + " (click for the whole card)";
  card.tabIndex = 0;
  card.setAttribute("role", "button");
  card.addEventListener("click", function () { G.showCard(g, extra); });
  card.addEventListener("keydown", function (event) {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); G.showCard(g, extra); }
  });
  G.add(card, "div", "occ", g.occupation);
  G.add(card, "div", "trait", g.trait);
  G.add(card, "div", "label", g.label.replace(g.occupation + " " + g.trait + " ", ""));
  const effect = g.text.indexOf("]: ");
  if (effect >= 0) G.add(card, "div", "effect", g.text.slice(effect + 3));
  if (extra) G.add(card, "div", "extra", extra);
  return card;
}

// the whole text of a Granuja in the side panel: the card's own box cuts its effect short
G.showCard = function (g, extra) {
  const panel = document.getElementById("card-panel");
  const box = document.getElementById("card-detail");
  if (!panel || !box) return;
  box.replaceChildren();
  const card = G.add(box, "div", "granuja whole colour-" + g.colour);
  G.add(card, "div", "occ", g.occupation);
  G.add(card, "div", "trait", g.trait);
  G.add(card, "div", "label", "colour " + g.colour + " · " + g.tech + " tech · hire cost " + g.cost + " $" + (g.used ? " · used this turn" : ""));
  G.add(card, "div", "text", g.text);
  if (extra) G.add(card, "div", "extra", extra);
  panel.hidden = false;
  panel.scrollIntoView({ block: "nearest" });
};

function henchmen(parent, seats) {
  for (const s of seats) G.add(parent, "span", "henchman " + seatClass(s), "p" + s);
}

function safeTile(s, safe, where) {
  const tile = G.el("div", "safe");
  if (!safe) {
    tile.classList.add("taken");
    G.add(tile, "div", "where", where);
    G.add(tile, "div", "value", "—");
    return tile;
  }
  G.add(tile, "div", "where", where);
  const value = G.add(tile, "div", "value", safe.value === null ? "?" : safe.value);
  if (safe.value === null) value.classList.add("unknown");
  // once the game is over every held Safe is shown (the score table counts it)
  const final = s.final ? s.final.safe_values[String(safe.id)] : undefined;
  if (safe.value === null && final !== undefined) {
    value.textContent = final;
    value.classList.remove("unknown");
    value.classList.add("final");
  }
  const marks = G.add(tile, "div", "marks");
  for (const [owner, face] of safe.marks) {
    const mark = G.add(marks, "span", "mark " + seatClass(owner), face);
    mark.title = "Mark of p" + owner + " showing " + face;
  }
  tile.title = "Safe " + safe.id + (safe.value === null ? " (value unknown to you)" : " (value " + safe.value + ")");
  return tile;
}

function safesById(s) {
  const byId = {};
  for (const safe of s.safes) byId[safe.id] = safe;
  return byId;
}

function infoBar(root, s) {
  const bar = G.add(root, "div", "infobar");
  if (s.game_over) {
    G.add(bar, "span", "big", "Game over: p" + s.winner + " wins");
  } else {
    G.add(bar, "span", "big", "Day " + s.day + "/" + s.last_day + " · turn " + s.turn + " of " + s.turns);
    G.add(bar, "span", "", "first player p" + s.first_player);
    G.add(bar, "span", "", "p" + s.current_player + "'s turn");
    if (s.decision) {
      const who = s.decision.player === s.seat ? "your move" : s.players[s.decision.player].name + " is deciding";
      const deciding = G.add(bar, "span", "deciding " + seatClass(s.decision.player), who);
      deciding.title = s.decision.question;
    }
    if (s.current.slot_name) {
      const cur = G.add(bar, "span", "", "card in play: slot " + s.current.slot_name);
      henchmen(cur, s.current.henchmen);
    }
  }
  if (s.seat !== null) G.add(bar, "span", "you " + seatClass(s.seat), "you are p" + s.seat);
  else G.add(bar, "span", "you", "public view");
}

function board(root, s) {
  const byId = safesById(s);
  const box = G.add(root, "section", "board");
  G.add(box, "h2", "", "Board");
  for (const loc of s.board) {
    const row = G.add(box, "div", "location");
    const head = G.add(row, "div", "lochead");
    G.add(head, "div", "locname", loc.name);
    G.add(head, "div", "small", "values " + loc.values.join("/"));
    G.add(head, "div", "small", "unused " + loc.unused + (loc.unused_seen && loc.unused_seen.length ? " (seen " + loc.unused_seen.join(", ") + ")" : ""));
    loc.cells.forEach(function (sid, pos) {
      row.appendChild(safeTile(s, sid === null ? null : byId[sid], String(pos + 1)));
    });
  }
}

function saloon(root, s) {
  const box = G.add(root, "section", "saloon");
  G.add(box, "h2", "", "Saloon");
  const row = G.add(box, "div", "cards");
  s.saloon.forEach(function (g, i) {
    row.appendChild(granuja(g, g ? "hire " + (i + 1) + ": " + g.cost + " $" : null));
  });
  const side = G.add(row, "div", "pile");
  G.add(side, "div", "", "Discard pile: " + s.discard.count);
  if (s.discard.top) side.appendChild(granuja(s.discard.top, "top of the discard pile"));
  G.add(side, "div", "small", "decks: " + s.decks.traits + " Traits, " + s.decks.occupations + " Occupations");
  if (s.limbo) row.appendChild(granuja(s.limbo, "just hired"));
}

function playedCard(p, slot, leader) {
  const cell = G.el("div", "slot");
  G.add(cell, "div", "slotname", slot);
  cell.title = "slot " + slot + ": " + leader;
  const card = p.played.find(function (c) { return c.slot_name === slot; });
  if (card) {
    const face = G.add(cell, "div", "poker", card.value === null ? "?" : card.value);
    face.classList.add(card.value === null ? "facedown" : "known");
    if (card.verdict) face.classList.add(card.verdict);
    face.title = card.value === null ? "face down" : card.value + (card.verdict ? " (" + card.verdict + ")" : "");
    henchmen(cell, card.henchmen);
  }
  return cell;
}

function player(root, s, p, byId) {
  const box = G.add(root, "section", "player " + seatClass(p.seat));
  if (p.seat === s.seat) box.classList.add("me");
  if (!s.game_over && p.seat === s.current_player) box.classList.add("current");
  const head = G.add(box, "div", "playerhead");
  G.add(head, "span", "pname", p.name + (p.seat === s.seat ? " (you)" : ""));
  G.add(head, "span", "money", p.money + " $");
  G.add(head, "span", "rep", "reputation " + (p.reputation > 0 ? "+" : "") + p.reputation);
  const h = p.henchmen;
  G.add(head, "span", "small", "henchmen: " + h.free + " free, " + h.jail + " jail, " + h.on_cards + " on cards" + (h.destroyed ? ", " + h.destroyed + " destroyed" : ""));
  G.add(head, "span", "small", "Marks " + p.marks_left.map(function (m) { return m.faces + "×" + m.count; }).join(" "));
  G.add(head, "span", "small", "hand " + p.hand_size + " · deck " + p.deck_size);
  const slots = G.add(box, "div", "slots");
  s.leader.forEach(function (l) { slots.appendChild(playedCard(p, l.slot_name, l.ability)); });
  const faceUp = p.played.find(function (c) { return c.slot === 0; });
  if (faceUp) slots.appendChild(playedCard(p, "face-up", "Honesto's 0 beside the sheet"));
  const sheet = G.add(box, "div", "cards sheet");
  p.sheet.forEach(function (g) { sheet.appendChild(granuja(g)); });
  const safes = G.add(box, "div", "held");
  G.add(safes, "span", "small", p.safes.length ? "Safes:" : "no Safes");
  for (const sid of p.safes) {
    const safe = byId[sid];
    safes.appendChild(safeTile(s, safe, s.board[safe.location].name));
  }
  if (p.strategy) G.add(box, "div", "small", "Strategy: " + p.strategy);
}

function hand(root, s) {
  if (s.seat === null) return;
  const box = G.add(root, "section", "hand");
  G.add(box, "h2", "", "Your hand");
  const row = G.add(box, "div", "handcards");
  if (!s.hand.length) G.add(row, "span", "small", "empty");
  for (const v of s.hand) G.add(row, "div", "poker known", v);
}

function finalTable(root, s) {
  if (!s.final) return;
  const box = G.add(root, "section", "final");
  G.add(box, "h2", "", "Final score");
  const table = G.add(box, "table");
  const head = G.add(table, "tr");
  const titles = ["player", "Safes", "Marks", "reputation → tech", "Granujas", "total tech", "money"];
  for (const t of titles) G.add(head, "th", "", t);
  s.final.breakdown.forEach(function (b, seat) {
    const row = G.add(table, "tr", seat === s.final.winner ? "winner" : "");
    G.add(row, "td", seatClass(seat), s.players[seat].name + (seat === s.final.winner ? " ★" : ""));
    G.add(row, "td", "", b.safes);
    G.add(row, "td", "", b.marks);
    const rep = s.final.reputation[seat];
    const cell = G.add(row, "td", "", (rep > 0 ? "+" : "") + rep + " → " + b.reputation);
    cell.title = "reputation " + rep + " on the track is worth " + b.reputation + " tech";
    G.add(row, "td", "", b.granujas);
    G.add(row, "td", "", b.total);
    G.add(row, "td", "", s.final.money[seat] + " $");
  });
  G.add(box, "p", "small", "Safes: the values of the Safes held · Marks: +1 per Mark matching its Safe's value · reputation: the track's value and the tech it is worth · ties go to more money.");
}

function earlierDays(root, s) {
  if (!s.earlier_days.length) return;
  const box = G.add(root, "section", "days");
  G.add(box, "h2", "", "Earlier days (declared slots, = value where known)");
  s.earlier_days.forEach(function (bySeat, day) {
    const line = G.add(box, "div", "small", "Day " + (day + 1) + ": ");
    bySeat.forEach(function (cards, seat) {
      const part = G.add(line, "span", "dayseat " + seatClass(seat), "p" + seat + " ");
      part.textContent += cards.map(function (c) {
        return c.slot_name + (c.value === null ? "" : "=" + c.value) + (c.revealed ? "!" : "");
      }).join(" ") || "-";
    });
  });
}

G.renderTable = function (root, s) {
  root.replaceChildren();
  infoBar(root, s);
  finalTable(root, s);
  board(root, s);
  saloon(root, s);
  hand(root, s);
  const byId = safesById(s);
  const players = G.add(root, "div", "players");
  for (const p of s.players) player(players, s, p, byId);
  earlierDays(root, s);
};

G.renderEvents = function (list, events) {
  list.replaceChildren();
  const start = Math.max(0, events.length - 300);
  events.slice(start).forEach(function (line) {
    const item = G.add(list, "li", line.indexOf("---") >= 0 ? "dayline" : "", line.replace(/-{3}/g, "").trim());
    if (/BLUFF/.test(line)) item.classList.add("bluff");
  });
  list.scrollTop = list.scrollHeight;
};

// what the server did for the seat or the table that the events do not say (a bot replaced,
// a forced choice played, an auto-pass)
G.renderNotices = function (notices) {
  const panel = document.getElementById("notes-panel");
  const list = document.getElementById("notices");
  if (!panel || !list) return;
  list.replaceChildren();
  for (const line of notices || []) G.add(list, "li", "", line);
  panel.hidden = !(notices && notices.length);
  list.scrollTop = list.scrollHeight;
};

// the help panel's slot abilities, from the table's leader
G.renderHelp = function (s) {
  const list = document.getElementById("help-slots");
  if (!list || list.childElementCount) return;
  for (const l of s.leader) G.add(list, "li", "", "slot " + l.slot_name + ": " + l.ability);
};

// a render counter the tests wait on
G.rendered = function () {
  document.body.dataset.renders = String(Number(document.body.dataset.renders || "0") + 1);
};

// the card panel's close button, on the pages that have one
(function () {
  const close = document.getElementById("card-close");
  if (close) close.addEventListener("click", function () { document.getElementById("card-panel").hidden = true; });
})();
