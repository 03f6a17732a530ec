// zoo-games in the browser. The page holds no rules: it draws the board the server sends,
// and a click counts only if it continues the clicks of one of the legal moves the server
// listed with it. The game's id is kept in sessionStorage, so that each tab has its own game
// and a reload finds it again (or says that it is gone).
"use strict";

const GAME_KEY = "zoo-games:game";
const $ = (id) => document.getElementById(id);
let view = null; // the last answer about this tab's game
let clicked = []; // the targets clicked so far towards a move
let waiting = false; // a request is in flight: clicks wait for its answer

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  if (response.status === 204) return null;
  let data;
  try {
    data = await response.json();
  } catch {
    data = { error: `the server answered ${response.status}` };
  }
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.status = response.status;
    throw error;
  }
  return data;
}

function say(text, isError = false) {
  $("message").textContent = text || "";
  $("message").className = isError ? "error" : "";
}

// The legal moves whose clicks begin with the clicks made so far.
function candidates() {
  return view.choices.filter((choice) => clicked.every((target, i) => choice.clicks[i] === target));
}

function nextTargets() {
  return new Set(
    candidates()
      .filter((choice) => choice.clicks.length > clicked.length)
      .map((choice) => choice.clicks[clicked.length]),
  );
}

function show(answer) {
  view = answer;
  clicked = [];
  sessionStorage.setItem(GAME_KEY, view.id);
  $("game").hidden = false;
  $("setup").open = false;
  $("board").innerHTML = view.board;
  $("players").textContent = `${view.variant}, seed ${view.seed}: ` +
    view.seats.map((seat) => `${seat.label}: ${seat.by}`).join("; ");
  $("turn").textContent = view.turn ? view.turn : "game over";
  $("news").textContent = view.news.join(" ");
  $("result").textContent = view.result ? `game over: ${view.result}` : "";
  $("position-string").value = view.position;
  $("undo").disabled = !view.can_undo;
  const record = $("record");
  record.replaceChildren(
    ...view.record.map((played) => {
      const item = document.createElement("li");
      item.textContent = `${view.seats[played.player].label}: ${played.name}` +
        (played.note ? ` (${played.note})` : "");
      item.title = played.description;
      return item;
    }),
  );
  const moves = $("moves");
  moves.replaceChildren(
    ...view.choices.map((choice) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = choice.name;
      button.title = choice.description;
      button.dataset.action = choice.action;
      button.addEventListener("click", () => play(choice.action));
      return button;
    }),
  );
  if (!view.choices.length) moves.textContent = view.result ? "none: the game is over" : "none";
  mark();
}

// Light up the targets: the next legal clicks, the ones made, the last move played.
function mark() {
  const next = nextTargets();
  for (const group of $("board").querySelectorAll("[data-target]")) {
    const target = group.dataset.target;
    group.classList.toggle("choosable", next.has(target));
    group.classList.toggle("selected", clicked.includes(target));
    group.classList.toggle("last", view.last.includes(target));
  }
  const open = new Set(candidates().map((choice) => String(choice.action)));
  for (const button of $("moves").querySelectorAll("button")) {
    button.classList.toggle("dim", !open.has(button.dataset.action));
  }
  $("cancel").disabled = clicked.length === 0;
  $("selection").textContent = clicked.length
    ? `chosen: ${clicked.join(" → ")}; click a highlighted target to go on`
    : "";
}

function onBoardClick(event) {
  const group = event.target.closest("[data-target]");
  if (!group || waiting || !view) return;
  const target = group.dataset.target;
  if (!nextTargets().has(target)) return; // not a legal choice now: nothing changes
  clicked.push(target);
  const complete = candidates().find((choice) => choice.clicks.length === clicked.length);
  if (complete) play(complete.action);
  else mark();
}

async function request(method, path, body) {
  if (waiting) return;
  waiting = true;
  document.body.classList.add("thinking");
  try {
    show(await api(method, path, body));
    say("");
  } catch (error) {
    if (error.status === 404) gone(error.message);
    else {
      say(error.message, true);
      clicked = [];
      if (view) mark();
    }
  } finally {
    waiting = false;
    document.body.classList.remove("thinking");
  }
}

function play(action) {
  return request("POST", `/api/games/${view.id}/move`, { action });
}

function gone(message) {
  sessionStorage.removeItem(GAME_KEY);
  view = null;
  $("game").hidden = true;
  $("setup").open = true;
  say(`This tab's game is gone: ${message}. Start a new one.`, true);
}

async function startGame(event) {
  event.preventDefault();
  const fields = {
    variant: $("variant").value,
    opponent: $("opponent").value.trim(),
    seat: $("seat").value,
  };
  const seed = $("seed").value.trim();
  // Sent as a number when it is one the browser holds exactly; the server checks it either way.
  if (seed) fields.seed = Number.isSafeInteger(Number(seed)) ? Number(seed) : seed;
  const position = $("position").value.trim();
  if (position) fields.position = position;
  const previous = view && view.id;
  await request("POST", "/api/games", fields);
  if (previous && view && view.id !== previous) {
    api("DELETE", `/api/games/${previous}`).catch(() => {}); // the tab's old game is done
  }
}

async function copyPosition() {
  const field = $("position-string");
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    field.select();
    document.execCommand("copy");
  }
  say("position copied");
}

async function main() {
  const setup = await api("GET", "/api/setup");
  $("variant").replaceChildren(...setup.variants.map((label) => new Option(label, label)));
  $("opponents").replaceChildren(...setup.opponents.map((name) => new Option(name, name)));
  $("new-game").addEventListener("submit", startGame);
  $("board").addEventListener("click", onBoardClick);
  $("undo").addEventListener("click", () => request("POST", `/api/games/${view.id}/undo`));
  $("cancel").addEventListener("click", () => {
    clicked = [];
    mark();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && view) {
      clicked = [];
      mark();
    }
  });
  $("copy").addEventListener("click", copyPosition);
  const saved = sessionStorage.getItem(GAME_KEY);
  if (saved) await request("GET", `/api/games/${saved}`);
}

main().catch((error) => say(`the page could not start: ${error.message}`, true));
