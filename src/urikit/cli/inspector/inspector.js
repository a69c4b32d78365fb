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
    el("span", { class: "clip" }, ` … ${more.toLocaleString("en")} more characters`),
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
      part.mark_clipped ? el("span", { class: "clip" }, ` … ${part.mark_clipped} more`) : null),
    ...shown(part.after),
    part.clipped_after ? el("span", { class: "clip" }, "…") : null,
  );
}

// --- the fragment: #uri=...&base=...&other=... ------------------------------------

function readFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  for (const name of FIELDS) $(name).value = params.get(name) || "";
}

function writeFragment(request) {
  const params = new URLSearchParams();
  for (const name of FIELDS) if (request[name]) params.set(name, request[name]);
  const fragment = params.toString();
  const address = location.pathname + location.search + (fragment ? "#" + fragment : "");
  history.replaceState(null, "", address);
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
    details.append(folded(`${answer.segments_total} path segments`, answer.segments.length,
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
    details.append(folded(`${answer.params_total} query parameters`, answer.params.length,
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
    list.append(el("li", { class: "none" }, `and ${answer.findings_total - findings.length} more`));
  }
}

function drawParsers(parsers) {
  const section = $("parsers");
  section.hidden = !parsers;
  if (!parsers) return;
  const tableNode = clear($("parsers-table"));
  tableNode.append(
    el("caption", {}, "How each parser reads the text; a highlighted cell means a different meaning from urikit's"),
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

function start() {
  readFragment();
  for (const name of FIELDS) $(name).addEventListener("input", schedule);
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
