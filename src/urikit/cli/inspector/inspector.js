// urikit inspect: asks POST /api/inspect as the user types and draws the answer.
// Every string from the input or the answer reaches the page through textContent or
// a text node, never as markup.
"use strict";

const FIELDS = ["uri", "base", "other"];
const DELAY_MS = 150;
// The most characters of one value drawn; the rest is counted, and in the title.
const SHOWN_CHARACTERS = 800;
// Characters that show nothing or reorder text: C0 and C1 controls, the soft hyphen,
// bidi formatting and zero-width characters, the BOM. They are drawn as U+XXXX.
const INVISIBLE = /[\u0000-\u0020\u007f-\u00a0\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\u3164\ufe00-\ufe0f\ufeff]/u;

let timer = null;
let pending = null;
let asked = 0;

function $(id) {
  return document.getElementById(id);
}

// An element with attributes and children (strings become text nodes).
function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value !== null && value !== undefined && value !== false) {
      node.setAttribute(name, value === true ? "" : String(value));
    }
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

// "1 segment", "2 segments".
function plural(count, noun) {
  return `${count.toLocaleString("en")} ${noun}${count === 1 ? "" : "s"}`;
}

function codePoint(ch) {
  return "U+" + ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
}

// ``text`` as nodes, each invisible character shown as a labelled U+XXXX box.
function shown(text) {
  const nodes = [];
  let run = "";
  for (const ch of text) {
    if (INVISIBLE.test(ch)) {
      if (run) nodes.push(document.createTextNode(run));
      run = "";
      nodes.push(el("span", { class: "cp", title: codePoint(ch) }, codePoint(ch)));
    } else {
      run += ch;
    }
  }
  if (run || !nodes.length) nodes.push(document.createTextNode(run));
  return nodes;
}

// ``text`` in a code element, cut after SHOWN_CHARACTERS.
function mono(text, cls) {
  if (text.length <= SHOWN_CHARACTERS) return el("code", { class: cls || null }, ...shown(text));
  const head = Array.from(text).slice(0, SHOWN_CHARACTERS).join("");
  const more = Array.from(text).length - Array.from(head).length;
  return el(
    "code",
    { class: cls || null, title: text },
    ...shown(head),
    el("span", { class: "clip" }, ` … ${plural(more, "more character")}`),
  );
}

// A component value as people read it: (undefined), '' or the text.
function value(text) {
  if (text === null || text === undefined) return el("span", { class: "undefined" }, "(undefined)");
  if (text === "") return el("span", { class: "empty" }, "'' (empty)");
  return mono(text);
}

function clear(node) {
  node.replaceChildren();
  return node;
}

function excerpt(part, markClass) {
  return el(
    "pre",
    { class: "excerpt" },
    part.clipped_before ? el("span", { class: "clip" }, "…") : null,
    ...shown(part.before),
    el("mark", { class: markClass }, ...(part.mark ? shown(part.mark) : [" "]),
      part.mark_clipped ? el("span", { class: "clip" }, ` … ${plural(part.mark_clipped, "more character")}`) : null),
    ...shown(part.after),
    part.clipped_after ? el("span", { class: "clip" }, "…") : null,
  );
}

// --- the fragment: #uri=...&base=...&other=... ------------------------------------
// An input that holds a password is never put in the address, which the browser keeps
// in its history (RFC 3986 §7.5); the page says so under the inputs.

// Whether ``text`` holds a password: a ":" in the userinfo of an authority, with
// something after it (as the command masks: urikit.cli._display.password_span).
function holdsPassword(text) {
  const authority = /\/\/([^\/?#]*)/.exec(text);
  if (!authority) return false;
  const at = authority[1].lastIndexOf("@");
  const colon = authority[1].indexOf(":");
  return at > 0 && colon >= 0 && colon < at - 1;
}

// The inputs the address gives, by name (those it does not give are absent).
function readFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const given = {};
  for (const name of FIELDS) {
    if (params.has(name)) given[name] = params.get(name);
    $(name).value = params.get(name) || "";
  }
  return given;
}

function writeFragment(request) {
  const params = new URLSearchParams();
  const kept = [];
  for (const name of FIELDS) {
    if (!request[name]) continue;
    if (holdsPassword(request[name])) kept.push(name);
    else params.set(name, request[name]);
  }
  const fragment = params.toString();
  const address = location.pathname + location.search + (fragment ? "#" + fragment : "");
  history.replaceState(null, "", address);
  const note = $("privacy");
  note.hidden = !kept.length;
  note.textContent = kept.length
    ? "An input that holds a password stays out of the page's address, so that it does not " +
      "land in the browser's history; this address does not bring it back."
    : "";
  note.dataset.kept = kept.join(" ");
}

// --- asking -------------------------------------------------------------------------

function request() {
  const body = {};
  for (const name of FIELDS) body[name] = $(name).value;
  return body;
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(ask, DELAY_MS);
}

async function ask() {
  const body = request();
  writeFragment(body);
  if (pending) pending.abort();
  const number = ++asked;
  if (!body.uri && !body.base && !body.other) {
    drawEmpty(body);
    return;
  }
  pending = new AbortController();
  $("status").textContent = "reading…";
  try {
    const response = await fetch("/api/inspect", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: pending.signal,
    });
    const answer = await response.json();
    if (number !== asked) return;
    if (!response.ok) {
      drawFailure(body, answer.error || response.statusText);
      return;
    }
    draw(body, answer);
  } catch (error) {
    if (error.name === "AbortError" || number !== asked) return;
    drawFailure(body, "the inspector is not answering (is urikit inspect still running?)");
  }
}

function finish(body, state) {
  const out = $("out");
  out.dataset.state = state;
  out.dataset.for = JSON.stringify(FIELDS.map((name) => body[name]));
}

function drawEmpty(body) {
  for (const id of ["resolution", "ladder", "findings", "parsers"]) $(id).hidden = true;
  clear($("drawing"));
  clear($("details"));
  $("error").hidden = true;
  $("summary").textContent = "Type a URI reference above; the empty reference is one, too.";
  $("status").textContent = "";
  finish(body, "empty");
}

function drawFailure(body, message) {
  $("status").textContent = message;
  finish(body, "failed");
}

// --- drawing the answer -------------------------------------------------------------

function draw(body, answer) {
  const count = answer.length === 1 ? "1 character" : `${answer.length} characters`;
  const kind = answer.kind === "iri" ? "IRI (RFC 3987)" : "URI (RFC 3986)";
  const summary = clear($("summary"));
  if (answer.ok) {
    summary.append(
      el("span", { class: "verdict ok" }, "valid"),
      ` ${kind} · kind ${answer.reference_kind} · ${count}`,
      answer.host_type ? ` · host type ${answer.host_type}` : "",
    );
  } else {
    summary.append(el("span", { class: "verdict bad" }, "invalid"), ` as a ${kind} reference · ${count}`);
  }
  drawMapping(answer.mapping);
  drawPieces(answer);
  drawError(answer);
  drawDetails(answer);
  drawResolution(answer.resolution);
  drawLadder(answer);
  drawFindings(answer);
  drawParsers(answer.parsers);
  $("status").textContent = "";
  finish(body, answer.ok ? "valid" : "invalid");
}

// An IRI's URI (RFC 3987 §3.1) and, for a non-ASCII host name, its IDNA form.
function drawMapping(mapping) {
  const box = clear($("mapping"));
  box.hidden = !mapping;
  if (!mapping) return;
  const rows = [el("dt", {}, "As a URI (RFC 3987 §3.1)"), el("dd", {}, mono(mapping.uri))];
  if (mapping.idna_host) {
    rows.push(el("dt", {}, "IDNA host (RFC 3490 ToASCII)"), el("dd", {}, mono(mapping.idna_host)));
    rows.push(el("dt", {}, "As a URI with the IDNA host"), el("dd", {}, mono(mapping.idna)));
  } else if (mapping.idna_error) {
    rows.push(el("dt", {}, "IDNA host (RFC 3490 ToASCII)"), el("dd", { class: "reason" }, mapping.idna_error));
  }
  box.append(...rows);
}

// Labels sit under their pieces, never widening them: each goes on the first lane under
// its line of pieces where it does not run into the label before it.
const LANE_REM = 1.05;
function placeLabels() {
  const drawing = $("drawing");
  const right = drawing.getBoundingClientRect().right;
  const ends = new Map();
  let lanes = 1;
  for (const label of drawing.querySelectorAll(".piece .label")) {
    label.style.top = "";
    label.style.left = "";
    const line = Math.round(label.parentElement.getBoundingClientRect().top);
    const taken = ends.get(line) || [];
    let box = label.getBoundingClientRect();
    if (box.right > right) {  // a label at the end of a line ends where the drawing does
      label.style.left = `${right - box.right}px`;
      box = label.getBoundingClientRect();
    }
    let lane = taken.findIndex((end) => end + 6 <= box.left);
    if (lane < 0) lane = taken.length;
    taken[lane] = box.right;
    ends.set(line, taken);
    label.style.top = `calc(100% + ${lane * LANE_REM}rem + 5px)`;  // under the 3px underline
    lanes = Math.max(lanes, taken.length);
  }
  drawing.style.setProperty("--lanes", String(lanes));
}

function drawPieces(answer) {
  const drawing = clear($("drawing"));
  drawing.setAttribute("aria-label", "the reference cut into its components");
  for (const piece of answer.pieces || []) {
    if (piece.kind === "delimiter") {
      drawing.append(el("span", { class: "delim", "aria-hidden": "true" }, piece.text));
      continue;
    }
    const text = el("span", { class: "text" });
    if (!piece.parts) text.append(mono(piece.text));
    for (const part of piece.parts || []) {
      if (part.decoded !== undefined) {
        text.append(el("abbr", { class: "pct", title: `decoded: ${part.title}` }, part.text));
      } else {
        text.append(...(part.text.length > SHOWN_CHARACTERS ? [mono(part.text)] : shown(part.text)));
      }
    }
    if (!piece.text) text.append(el("span", { class: "empty" }, "''"));
    const title = piece.decoded && piece.decoded !== piece.text
      ? `${piece.label}: ${piece.text}\ndecoded: ${piece.decoded}`
      : `${piece.label}: ${piece.text}`;
    drawing.append(
      el(
        "span",
        { class: `piece k-${piece.kind}`, title, "data-label": piece.label },
        text,
        el("span", { class: "label" }, piece.label),
      ),
    );
  }
  placeLabels();
}

function drawError(answer) {
  const box = clear($("error"));
  box.hidden = answer.ok;
  if (answer.ok) return;
  const error = answer.error;
  if (error.excerpt) box.append(excerpt(error.excerpt, "at"));
  box.append(
    el(
      "p",
      { class: "message" },
      error.position === null ? "" : `position ${error.position}`,
      error.rule ? el("span", { class: "rule" }, " · rule ", el("code", {}, error.rule)) : null,
    ),
    el("p", { class: "reason" }, error.reason),
  );
  if (answer.lenient) {
    const repairs = answer.lenient.repairs.map((r) => el("li", {}, r.message));
    box.append(
      el("p", { class: "lenient" }, "A lenient reader (RFC 3986 Appendix C) would repair it to ",
        mono(answer.lenient.text), ":"),
      el("ul", { class: "repairs" }, ...repairs),
    );
  }
}

function table(caption, headings, rows) {
  return el(
    "div",
    { class: "scroll", tabindex: "0", role: "region", "aria-label": caption },
    el(
      "table",
      {},
      el("caption", {}, caption),
      el("thead", {}, el("tr", {}, ...headings.map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...rows),
    ),
  );
}

// A long table folded away: open when it has at most FOLD_ROWS rows.
const FOLD_ROWS = 12;
function folded(title, rows, node) {
  return el("details", { open: rows <= FOLD_ROWS }, el("summary", {}, title), node);
}

function span(pair) {
  return pair ? `${pair[0]}–${pair[1]}` : "";
}

function drawDetails(answer) {
  const details = clear($("details"));
  if (!answer.ok) return;
  details.append(
    table(
      "Components (RFC 3986 §3)",
      ["component", "value", "span", "decoded"],
      answer.components.map((c) =>
        el("tr", {}, el("th", { scope: "row" }, c.name), el("td", {}, value(c.value)),
          el("td", { class: "num" }, span(c.span)), el("td", {}, c.decoded === null ? "" : mono(c.decoded)))),
    ),
  );
  if (answer.segments.length) {
    const more = answer.segments_total > answer.segments.length ? `, first ${answer.segments.length} of ${answer.segments_total}` : "";
    details.append(folded(plural(answer.segments_total, "path segment"), answer.segments.length,
      table(
        `Path segments (§3.3${more})`,
        ["#", "segment", "span", "decoded"],
        answer.segments.map((s, i) =>
          el("tr", {}, el("td", { class: "num" }, String(i + 1)), el("td", {}, value(s.text)),
            el("td", { class: "num" }, span(s.span)), el("td", {}, mono(s.decoded)))),
      )),
    );
  }
  if (answer.params.length) {
    const more = answer.params_total > answer.params.length ? `, first ${answer.params.length} of ${answer.params_total}` : "";
    details.append(folded(plural(answer.params_total, "query parameter"), answer.params.length,
      table(
        `Query parameters (§3.4, "&" and "="${more})`,
        ["#", "name", "value", "span"],
        answer.params.map((p, i) =>
          el("tr", {}, el("td", { class: "num" }, String(i + 1)), el("td", {}, value(p.name)),
            el("td", {}, value(p.value), p.plus ? el("span", { class: "note" }, " (a form reads + as space)") : null),
            el("td", { class: "num" }, span(p.span)))),
      )),
    );
  }
}

function drawResolution(resolution) {
  const section = $("resolution");
  const body = clear($("resolution-body"));
  section.hidden = !resolution;
  if (!resolution) return;
  if (resolution.error) {
    const error = resolution.error;
    body.append(el("p", { class: "verdict bad" }, "The base cannot be used"));
    if (error.excerpt) body.append(excerpt(error.excerpt, "at"));
    body.append(el("p", { class: "reason" }, error.reason));
    return;
  }
  body.append(
    el("p", { class: "target" }, "Target ", mono(resolution.target, "result")),
    el(
      "ol",
      { class: "steps" },
      ...resolution.steps.map((s) =>
        el("li", {}, el("span", { class: "step" }, s.step), " ", s.text,
          s.out === undefined ? null : el("span", { class: "arrow" }, " → "),
          s.out === undefined ? null : mono(s.out))),
    ),
    el(
      "p",
      { class: "back" },
      "Back: relativize(base, target) = ",
      mono(resolution.relativized === "" ? "''" : resolution.relativized, "result"),
      resolution.round_trip ? " (resolves to the target again)" : " (does not resolve back!)",
    ),
  );
}

function ladderTable(caption, rungs, equalAt) {
  return table(
    caption,
    ["rung", "form", "what it does"],
    rungs.map((r, i) =>
      el("tr", { class: r.rung === equalAt ? "equal" : null },
        el("th", { scope: "row" }, r.rung),
        el("td", { class: i && r.text !== rungs[i - 1].text ? "changed" : null }, mono(r.text)),
        el("td", { class: "about" }, r.about))),
  );
}

function drawLadder(answer) {
  const body = clear($("ladder-body"));
  const comparison = answer.comparison;
  $("ladder").hidden = !answer.ladder && !comparison;
  if (answer.ladder) body.append(ladderTable("The reference at each rung", answer.ladder, comparison && comparison.rung));
  if (!comparison) return;
  if (comparison.error) {
    body.append(el("p", { class: "comparison bad" }, "The second URI is invalid: ", comparison.error.reason));
    return;
  }
  const verdict = comparison.rung
    ? el("p", { class: "comparison equal" }, "Equivalent from the ", el("strong", {}, comparison.rung), " rung up")
    : el("p", { class: "comparison bad" }, answer.ok ? "Different at every rung" : "The first reference is invalid");
  body.append(verdict, ladderTable("The second URI at each rung", comparison.ladder, comparison.rung));
}

function drawFindings(answer) {
  const list = clear($("findings-list"));
  const findings = answer.findings || [];
  $("findings").hidden = false;
  if (!findings.length) {
    list.append(el("li", { class: "none" }, "No findings."));
    return;
  }
  for (const f of findings) {
    list.append(
      el("li", { class: `finding sev-${f.severity}` },
        el("span", { class: "badge" }, f.severity),
        " ", el("code", { class: "code" }, f.code),
        f.component ? el("span", { class: "component" }, ` (${f.component} ${f.span[0]}–${f.span[1]})`) : el("span", { class: "component" }, ` (${f.span[0]}–${f.span[1]})`),
        el("p", { class: "finding-message" }, f.message),
        excerpt(f.excerpt, `sev-${f.severity}`)),
    );
  }
  if (answer.findings_total > findings.length) {
    list.append(el("li", { class: "none" }, `and ${plural(answer.findings_total - findings.length, "more finding")}`));
  }
}

function drawParsers(parsers) {
  const section = $("parsers");
  section.hidden = !parsers;
  if (!parsers) return;
  const about = clear($("parsers-about"));
  about.append(
    parsers.against
      ? "How each parser reads the reference against the base, whose target is "
      : "How each parser reads the text",
    parsers.against ? mono(parsers.against) : "",
    "; a highlighted cell means a different meaning from urikit's.",
  );
  const tableNode = clear($("parsers-table"));
  tableNode.append(
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "component"),
      ...parsers.parsers.map((p) => el("th", { scope: "col" }, p)))),
  );
  const rows = parsers.rows.map((row) =>
    el("tr", { class: row.differs.length ? "differs" : null },
      el("th", { scope: "row" }, row.component),
      ...row.values.map((v, i) => {
        const failed = parsers.failures[i];
        if (failed) return el("td", { class: "failed" }, row === parsers.rows[0] ? failed : "");
        const differs = row.differs.includes(i);
        return el("td", { class: differs ? "differs" : null }, value(v), differs ? el("span", { class: "flag" }, " ≠") : null);
      })));
  tableNode.append(el("tbody", {}, ...rows));
  const notes = clear($("parsers-notes"));
  for (const note of parsers.notes) notes.append(el("li", {}, note));
}

// --- start --------------------------------------------------------------------------

// The inputs given on the command line, for those the address does not give.
async function fillInitial(given) {
  if (FIELDS.every((name) => name in given)) return;
  try {
    const response = await fetch("/api/initial");
    if (!response.ok) return;
    const initial = await response.json();
    for (const name of FIELDS) {
      if (!(name in given) && !$(name).value && initial[name]) $(name).value = initial[name];
    }
  } catch (error) {
    // The page works without them.
  }
}

async function start() {
  await fillInitial(readFragment());
  for (const name of FIELDS) $(name).addEventListener("input", schedule);
  window.addEventListener("resize", placeLabels);
  $("inputs").addEventListener("submit", (event) => {
    event.preventDefault();
    ask();
  });
  window.addEventListener("hashchange", () => {
    readFragment();
    ask();
  });
  ask();
}

start();
