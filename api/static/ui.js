// The curator page: plain DOM code over the REST API. Every text from the graph goes in with textContent,
// never innerHTML, so extracted text cannot inject markup or script.
"use strict";

const $ = (id) => document.getElementById(id);
let key = sessionStorage.getItem("paperkg-key") || "";
let current = null; // the element shown: {kind, ref, data}

function el(tag, text, attrs) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}

// Every outcome goes to the status line, a toast and the log: a toast of success leaves after a few seconds, one
// of failure stays until dismissed, and the log keeps them all for the session.
const TOAST_MS = 6000;

function say(text, isError) {
  $("message").textContent = text;
  $("message").className = isError ? "error" : "";
  const toast = el("div", undefined, {class: "toast" + (isError ? " error" : ""), role: isError ? "alert" : "status"});
  const close = el("button", "×", {type: "button", "aria-label": "dismiss"});
  close.addEventListener("click", () => toast.remove());
  toast.append(el("span", text), close);
  $("toasts").append(toast);
  if (!isError) setTimeout(() => toast.remove(), TOAST_MS);
  const entry = el("li", new Date().toLocaleTimeString() + " " + text, isError ? {class: "error"} : {});
  $("log").prepend(entry);
}

async function api(method, path, body, version) {
  const headers = {"X-API-Key": key};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (version) headers["If-Match"] = '"' + version + '"';
  const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const data = (response.headers.get("content-type") || "").includes("json") ? await response.json() : null;
  if (!response.ok) {
    const error = new Error((data && data.error && data.error.message) || response.statusText);
    error.status = response.status;
    throw error;
  }
  return data;
}

async function useKey(event) {
  event.preventDefault();
  key = $("api-key").value.trim();
  sessionStorage.setItem("paperkg-key", key);
  await start();
}

async function start() {
  if (!key) return;
  try {
    const me = await api("GET", "/curation/whoami");
    $("whoami").textContent = "signed in as " + me.name + " (" + me.role + ")";
    await Promise.all([loadList(), loadPaperNames(), loadOperations()]);
  } catch (error) {
    say(error.message, true);
  }
}

// The review list: the API filters, sorts and pages (GET /curation/items); the page keeps only the rows shown,
// the curator's selection and the events of this session (for u, undo).
const PAGE_SIZE = 50;
let offset = 0;
let rows = []; // the items shown, in order: {kind: "node" | "edge", id, ...}
let position = -1; // index in rows of the open item, -1 when the open item is not in the list
const selected = new Set();
let lastClicked = -1; // for shift-click ranges
const done = []; // event ids of this session's changes, newest last

function query() {
  const params = new URLSearchParams({queue: $("f-queue").value, offset: String(offset), limit: String(PAGE_SIZE)});
  const add = (name, value) => { if (value !== "") params.append(name, value); };
  add("q", $("f-q").value.trim());
  add("paper", $("f-paper").value.trim());
  add("label", $("f-label").value);
  add("status", $("f-status").value);
  add("min_confidence", $("f-min").value);
  add("max_confidence", $("f-max").value);
  add("extractor", $("f-extractor").value.trim());
  if ($("f-since").value) params.append("changed_since", new Date($("f-since").value).toISOString());
  add("sort", $("f-sort").value);
  if ($("f-desc").checked) params.append("descending", "true");
  if ($("f-queue").value === "sample") add("seed", $("f-seed").value);
  return params;
}

// The queue "needs attention" is the fixed queue of GET /curation/queue (flagged and contested nodes and edges,
// SAME_AS candidates, low-confidence nodes, figures and tables not linked from the text): it holds edges too; the
// review list's filters narrow it, its pager and sort do not apply.
const ATTENTION = "attention";
const ATTENTION_LIMIT = 200;
const GROUPS = {flagged: "flagged", contested: "contested", same_as: "duplicate candidates",
                low_confidence: "low confidence", uncovered: "unlinked figures/tables"};
const NOT_FILTERS = ["queue", "offset", "limit", "sort", "descending", "seed"];

// Loads of the list are numbered like the feed's: quick successive loads (a change, then other filters) may answer
// out of order, and only the newest one's rows are shown.
let listLoads = 0;

async function loadList() {
  const ticket = ++listLoads;
  if ($("f-queue").value === ATTENTION) return loadAttention(ticket);
  const page = await api("GET", "/curation/items?" + query());
  if (ticket !== listLoads) return;
  rows = page.items.map((item) => ({...item, kind: "node",
                                   reason: item.contested ? "re-ingest: " + item.contested.reason : item.reason}));
  $("select-page").checked = false;
  const labels = $("f-label");
  if (labels.options.length === 1) for (const label of page.labels) labels.append(el("option", label));
  const body = $("items").tBodies[0];
  body.replaceChildren();
  rows.forEach((item, index) => body.append(row(item, index)));
  findOpen();
  const p = page.progress;
  $("progress").textContent = p.verified + " verified, " + p.rejected + " rejected of " + p.total + " in view" +
    " (" + p.flagged + " flagged, " + p.edited + " edited, " + p.auto + " not reviewed)";
  $("page-info").textContent = page.total
    ? (page.offset + 1) + "–" + (page.offset + rows.length) + " of " + page.total : "none";
  $("prev-page").disabled = page.offset === 0;
  $("next-page").disabled = page.offset + rows.length >= page.total;
  showSelection();
}

async function loadAttention(ticket) {
  const params = query();
  for (const name of NOT_FILTERS) params.delete(name);
  params.append("limit", String(ATTENTION_LIMIT));
  const items = await api("GET", "/curation/queue?" + params);
  if (ticket !== listLoads) return;
  rows = items.map((item) => ({kind: item.element_kind, id: item.element, label: item.label, name: item.name,
                               confidence: item.confidence, status: item.kind, reason: item.why,
                               papers: item.papers, paper_count: item.paper_count,
                               more_papers: item.more_papers}));
  $("select-page").checked = false;
  $("items").tBodies[0].replaceChildren(...rows.map(row));
  findOpen();
  const counts = Object.entries(GROUPS).map(([group, words]) =>
    rows.filter((item) => item.status === group).length + " " + words);
  $("progress").textContent = rows.length + " need attention (" + counts.join(", ") + ")";
  $("page-info").textContent = rows.length === ATTENTION_LIMIT ? "the first " + ATTENTION_LIMIT : "";
  $("prev-page").disabled = $("next-page").disabled = true;
  showSelection();
}

function findOpen() {
  position = current ? rows.findIndex((item) => item.kind === current.kind && item.id === current.ref) : -1;
  markOpen();
}

function row(item, index) {
  const tr = el("tr", undefined, {"data-element": item.id, "data-kind": item.kind});
  const box = el("input", undefined, {type: "checkbox", "aria-label": "select " + item.label + " " + item.name});
  box.checked = selected.has(item.id);
  box.addEventListener("click", (event) => choose(index, box.checked, event.shiftKey));
  const pick = el("td");
  pick.append(box);
  const papers = item.papers.map((p) => p.title || p.id).join("; ") +
    (item.paper_count > item.papers.length ? " +" + (item.paper_count - item.papers.length) : "") +
    (item.more_papers ? " or more" : "");
  const open = el("button", item.name || item.id, {type: "button", class: "link"});
  open.addEventListener("click", () => openAt(index));
  const name = el("td");
  name.append(open);
  tr.append(pick, el("td", papers, {class: "paper"}), el("td", item.label), name,
            el("td", item.confidence === null ? "" : item.confidence.toFixed(2)),
            el("td", item.status, {class: "status-" + item.status}), el("td", item.reason || ""));
  return tr;
}

function choose(index, on, range) {
  const [from, to] = range && lastClicked >= 0
    ? [Math.min(lastClicked, index), Math.max(lastClicked, index)] : [index, index];
  lastClicked = index;
  select(from, to, on);
}

function select(from, to, on) {
  for (let i = from; i <= to; i++) on ? selected.add(rows[i].id) : selected.delete(rows[i].id);
  for (const tr of $("items").tBodies[0].rows) tr.cells[0].firstChild.checked = selected.has(tr.dataset.element);
  showSelection();
}

function showSelection() {
  $("selected-count").textContent = selected.size + " selected";
  $("bulk-verify").disabled = $("bulk-reject").disabled = selected.size === 0;
}

function markOpen() {
  const body = $("items").tBodies[0];
  for (const tr of body.rows) tr.classList.remove("open");
  if (position >= 0) {
    body.rows[position].classList.add("open");
    body.rows[position].scrollIntoView({block: "nearest"});
  }
}

async function openAt(index) {
  if (index < 0 || index >= rows.length) return;
  position = index;
  markOpen();
  await openElement(rows[index].kind, rows[index].id);
}

async function loadPaperNames() {
  const page = await api("GET", "/papers?limit=200");
  $("paper-names").replaceChildren(...page.items.map((p) => el("option", p.title || p.id, {value: p.id})));
}

// The feed's operation filter lists the actions the API declares (GET /curation/operations), after "any".
async function loadOperations() {
  const actions = await api("GET", "/curation/operations");
  $("h-operation").replaceChildren(el("option", "any", {value: ""}), ...actions.map((action) => el("option", action)));
}

function path(kind, ref) {
  return "/curation/" + (kind === "node" ? "nodes/" : "edges/") + encodeURIComponent(ref);
}

// Opening an item empties every field a change takes, so nothing typed for one item is applied to another.
const ITEM_FIELDS = ["reason", "edit-json", "duplicate-id", "edge-type", "edge-target"];

// Loads are numbered: a change or a newer load makes an older one stale, and a stale load's failure (a relabel
// moves the edges whose evidence was being read) is not news.
let generation = 0;

async function openElement(kind, ref) {
  const mine = ++generation;
  try {
    const data = await api("GET", path(kind, ref));
    if (mine !== generation) return; // another item was opened (or changed) meanwhile: it is the one to show
    const changed = !current || current.kind !== kind || current.ref !== (kind === "node" ? data.id : data.edge_id);
    current = {kind, ref: kind === "node" ? data.id : data.edge_id, data};
    if (changed) {
      for (const id of ITEM_FIELDS) $(id).value = "";
      for (const box of ["edit-box", "merge-box"]) $(box).open = false;
    }
    const shown = rows[position] || {};
    if (shown.kind !== kind || shown.id !== current.ref) findOpen();
    render(changed);
    $("element-panel").scrollIntoView({block: "start"});
    await Promise.all([loadEvidence(), loadNeighbours(), loadHistory()]);
  } catch (error) {
    if (mine === generation) say(error.message, true);
  }
}

// A re-read of the item already shown (after a change, or opened again by a click while the list advanced to it)
// keeps the type and label the curator has picked but not yet saved, when the item still allows them; what the
// last render preselected is no pick (another curator may have retyped the item since).
let preselected = {};

function render(changed) {
  const d = current.data;
  const picked = (id, allowed, fallback) =>
    !changed && $(id).value !== preselected[id] && allowed.includes($(id).value) ? $(id).value : fallback;
  const type = picked("retype", d.allowed_types || [], d.type);
  const label = picked("relabel", d.allowed_labels || [], undefined);
  preselected = {retype: d.type, relabel: (d.allowed_labels || [])[0]};
  $("element-panel").hidden = false;
  $("element-title").textContent = d.kind === "node" ? d.label + " " + d.id : d.source + " -[" + d.type + "]-> " + d.target;
  const status = d.properties.verification_status || "";
  $("status").textContent = status;
  $("status").className = "status-" + status;
  $("version").textContent = d.version;
  $("remove-edge").hidden = $("retype-box").hidden = d.kind !== "edge";
  $("retype").replaceChildren(...(d.allowed_types || []).map((t) => el("option", t, t === type
    ? {value: t, selected: ""} : {value: t})));
  $("relabel-box").hidden = !(d.allowed_labels && d.allowed_labels.length);
  $("relabel").replaceChildren(...(d.allowed_labels || []).map((l) => el("option", l, l === label
    ? {value: l, selected: ""} : {value: l})));
  $("merge").disabled = d.kind !== "node";
  $("provenance").textContent = provenance(d.properties);
  const body = $("properties").tBodies[0];
  body.replaceChildren();
  for (const name of Object.keys(d.properties).sort()) {
    const value = d.properties[name];
    const row = el("tr");
    row.append(el("th", name, {scope: "row"}), el("td", typeof value === "string" ? value : JSON.stringify(value)));
    body.append(row);
  }
}

// Provenance in words: who or what made the element, in which run, how sure it was, and what curators decided.
function provenance(p) {
  const parts = [];
  if (p.extractor) parts.push("found by " + p.extractor + (p.run_id ? " in run " + p.run_id : ""));
  if (typeof p.confidence === "number") parts.push("confidence " + p.confidence.toFixed(2));
  if (p.verification_status) parts.push("status " + p.verification_status);
  return parts.length ? parts.join(", ") : "no provenance recorded";
}

async function picture(id, chunk) {
  const query = chunk ? "?chunk=" + encodeURIComponent(chunk) : "";
  const response = await fetch("/evidence/" + encodeURIComponent(id) + ".png" + query, {headers: {"X-API-Key": key}});
  return response.ok ? URL.createObjectURL(await response.blob()) : null;
}

// The element's own crop (figures, tables, sections have a place on a page), then side by side for each edge it
// rests on (an entity's evidence is on its edges): the crop around the span's boxes and the passage with the
// span marked.
async function loadEvidence() {
  const img = $("evidence");
  const list = $("evidence-items");
  $("evidence-note").textContent = "";
  img.removeAttribute("src");
  list.replaceChildren();
  const own = current.kind === "node" ? await picture(current.data.id) : null;
  img.hidden = !own;
  if (own) img.src = own;
  const items = await api("GET", path(current.kind, current.ref) + "/evidence");
  for (const item of items) list.append(await evidenceItem(item));
  if (!own && !items.length) $("evidence-note").textContent = "no evidence in a paper for this element";
}

async function evidenceItem(item) {
  const box = el("article", undefined, {class: "evidence-item", "data-edge": item.edge_id});
  const paper = item.paper ? (item.paper.title || item.paper.id) : "no paper";
  box.append(el("h4", item.source.label + " " + item.source.name + " -[" + item.type + "]-> " +
                item.target.label + " " + item.target.name));
  box.append(el("p", paper + ": " + provenance({extractor: item.extractor, run_id: item.run_id,
                                                confidence: item.confidence, verification_status: item.status}),
                {class: "provenance"}));
  for (const passage of item.passages) {  // each passage's crop beside its text
    const pair = el("div", undefined, {class: "pair passages"});
    const src = passage.boxes.length ? await picture(item.edge_id, passage.chunk_id) : null;
    pair.append(src ? el("img", undefined, {src, class: "crop", alt: "the PDF where this " + item.type + " is stated"})
                    : el("p", "no page region for this passage"), marked(passage));
    box.append(pair);
  }
  return box;
}

// The passage as text nodes with the spans in <mark>: inserted as text, never as HTML.
function marked(passage) {
  const out = el("blockquote", undefined, {"data-chunk": passage.chunk_id});
  out.append(el("cite", (passage.section ? passage.section + ", " : "") + "page " + passage.page));
  const text = el("p");
  let at = 0;
  for (const [start, end] of passage.spans) {
    if (start < at) continue;
    text.append(passage.text.slice(at, start), el("mark", passage.text.slice(start, end)));
    at = end;
  }
  text.append(passage.text.slice(at));
  out.append(text);
  return out;
}

async function loadNeighbours() {
  const list = $("neighbours");
  list.replaceChildren();
  if (current.kind !== "node") {
    for (const end of [current.data.source, current.data.target]) list.append(link("node", end, end));
    return;
  }
  const graph = await api("GET", "/nodes/" + encodeURIComponent(current.data.id) + "/neighbours?limit=50");
  const names = Object.fromEntries(graph.nodes.map((n) => [n.id, n]));
  for (const edge of graph.edges) {
    const outgoing = edge.source === current.data.id;
    const other = names[outgoing ? edge.target : edge.source];
    if (!other) continue;
    const label = (outgoing ? "→ " : "← ") + edge.type + " " + other.labels.join(",") + " " +
      (other.properties.name || other.properties.title || other.properties.label || other.id);
    const item = link("node", other.id, label);
    const edgeButton = el("button", "edge", {type: "button", "aria-label": "open edge " + edge.type});
    edgeButton.addEventListener("click", () => openElement("edge", edge.id));
    item.append(" ", edgeButton);
    list.append(item);
  }
}

function link(kind, ref, text) {
  const item = el("li");
  const button = el("button", text, {type: "button", class: "link"});
  button.addEventListener("click", () => openElement(kind, ref));
  item.append(button);
  return item;
}

async function loadHistory() {
  const events = await api("GET", path(current.kind, current.ref) + "/history");
  $("history").replaceChildren(...events.map((event) => eventItem(event, false)));
}

// The undo of a retype or a relabel is not itself undone (the API refuses it): the change is made again instead.
const NOT_UNDOABLE = new Set(["retype_undone", "relabel_undone"]);

// One event as a line of a history, with an Undo button where the API can undo it; the feed also names the
// element, as it lists events of every element.
function eventItem(event, named) {
  const item = el("li", undefined, {"data-event": event.id});
  const text = event.at + " " + event.actor + " " + event.action + (named ? " " + event.element : "") +
    (event.reason ? ": " + event.reason : "") + (event.undone_by ? " (undone)" : "");
  item.append(el("span", text, {class: "event"}));
  if (!event.undone_by && !NOT_UNDOABLE.has(event.change)) {
    const undo = el("button", "Undo", {type: "button", "aria-label": "undo " + event.action + " of " + event.at});
    undo.addEventListener("click", () => act(() => api("POST", "/curation/undo/" + encodeURIComponent(event.id), {})));
    item.append(" ", undo);
  }
  return item;
}

// The history feed (GET /curation/history): newest first, filtered by the API, a page at a time.
const FEED_PAGE = 50;
let feedOldest = null; // the id of the oldest event shown, for "Older"
let feedShown = false; // once shown, the feed is read again after each change
let feedLoads = 0; // loads of the feed asked for: only the newest one's answer is shown

async function loadFeed(more) {
  const ticket = ++feedLoads;
  const params = new URLSearchParams({limit: String(FEED_PAGE)});
  const add = (name, value) => { if (value !== "") params.append(name, value); };
  add("actor", $("h-actor").value.trim());
  add("operation", $("h-operation").value);
  add("element", $("h-element").value.trim());
  if ($("h-since").value) params.append("since", new Date($("h-since").value).toISOString());
  if (more && feedOldest) params.append("before", feedOldest);
  const events = await api("GET", "/curation/history?" + params);
  if (ticket !== feedLoads) return; // a newer load (other filters, a change) answers instead; this one is stale
  feedShown = true;
  const items = events.map((event) => eventItem(event, true));
  if (more) $("feed").append(...items); else $("feed").replaceChildren(...items);
  if (events.length) feedOldest = events[events.length - 1].id;
  $("feed-more").hidden = events.length < FEED_PAGE;
}

// After a change: the open item, its history and the list are read again (the list's filters may now leave the
// item out), and the change joins this session's undo stack.
async function act(call, advance) {
  const next = advance && position >= 0 ? rows[position + 1] : undefined;
  const at = position;
  const mine = ++generation;
  try {
    const result = await call();
    if (result && result.event) done.push(result.event.id);
    say(result && result.event ? result.event.action + " recorded" : "nothing to change");
    if (!(result && result.element)) $("element-panel").hidden = true;
    await Promise.all([loadList(), feedShown ? loadFeed(false) : null]);
    if (mine !== generation) return; // the curator opened another item meanwhile: it stays open
    if (advance) {
      const index = next ? rows.findIndex((item) => item.id === next.id) : -1;
      const target = index >= 0 ? index : Math.min(at, rows.length - 1);
      if (target >= 0 && rows[target].id !== (current && current.ref)) return openAt(target);
    }
    if (result && result.element) {
      const element = result.element;
      await openElement(element.kind, element.kind === "node" ? element.id : element.edge_id);
    }
  } catch (error) {
    say(error.message, true);
    if (error.status === 409 && current) await openElement(current.kind, current.ref);
  }
}

function status(action, reason, advance) {
  if (!current) return;
  const why = reason === undefined ? $("reason").value.trim() || null : reason;
  return act(() => api("POST", path(current.kind, current.ref) + "/" + action, {reason: why}, current.data.version),
             advance);
}

// A reason asked for in a dialog (keyboard work): resolves to the text, or null when cancelled.
function askReason(title, required) {
  const dialog = $("reason-dialog");
  $("reason-dialog-title").textContent = title;
  $("dialog-reason").value = "";
  $("dialog-reason").required = required;
  dialog.returnValue = "";
  dialog.showModal();
  $("dialog-reason").focus();
  return new Promise((resolve) => dialog.addEventListener("close", () =>
    resolve(dialog.returnValue === "ok" ? $("dialog-reason").value.trim() : null), {once: true}));
}

// A merge is confirmed in a dialog that shows both nodes as the graph holds them now: which stays, which is
// merged into it. Resolves to true when confirmed.
async function confirmMerge(survivorId, duplicateId) {
  const [survivor, duplicate] = await Promise.all([survivorId, duplicateId].map((id) => api("GET", path("node", id))));
  for (const [side, node, role] of [["merge-survivor", survivor, "Stays"], ["merge-duplicate", duplicate,
                                                                           "Merged into it (then rejected)"]]) {
    const p = node.properties;
    const aliases = (p.aliases || []).join(", ");
    $(side).replaceChildren(el("h3", role), el("p", node.label + ": " + (p.name || p.title || node.id)),
                            el("p", "id " + node.id), el("p", aliases ? "also: " + aliases : "no aliases"),
                            el("p", provenance(p)));
  }
  const dialog = $("merge-dialog");
  dialog.returnValue = "";
  dialog.showModal();
  $("merge-cancel").focus();
  return new Promise((resolve) => dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"),
                                                          {once: true}));
}

async function statusAsking(action, required) {
  if (!current) return;
  const title = (action === "reject" ? "Reject " : "Flag ") + $("element-title").textContent;
  const reason = await askReason(title, required);
  if (reason !== null) await status(action, reason || null, true);
}

// Bulk changes go through the same operation as one item's, one at a time, each with the version it was read
// at, so each is recorded in the history and each can be undone alone.
async function bulk(action) {
  const chosen = rows.filter((item) => selected.has(item.id));
  if (!chosen.length) return;
  let reason = null;
  if (action === "reject") {
    reason = await askReason("Reject " + chosen.length + " selected items", false);
    if (reason === null) return;
  }
  let changed = 0;
  for (const {kind, id} of chosen) {
    try {
      const element = await api("GET", path(kind, id));
      const result = await api("POST", path(kind, id) + "/" + action, {reason: reason || null}, element.version);
      if (result.event) { done.push(result.event.id); changed++; }
      selected.delete(id);
    } catch (error) {
      say(id + ": " + error.message, true);
    }
  }
  await loadList();  // then the outcome: when it shows, so do the list and progress it changed
  say(action + " recorded for " + changed + " of " + chosen.length + " selected items");
  if (current) await openElement(current.kind, current.ref);
}

async function undoLast() {
  const id = done.pop();
  if (!id) { say("nothing of this session to undo", true); return; }
  await act(() => api("POST", "/curation/undo/" + encodeURIComponent(id), {}), false);
}

const KEYS = {
  j: () => openAt(position + 1),
  k: () => openAt(position < 0 ? 0 : position - 1),
  v: () => status("verify", undefined, true),
  r: () => statusAsking("reject", false),
  f: () => statusAsking("flag", true),
  x: () => { if (position >= 0) choose(position, !selected.has(rows[position].id), false); },
  u: () => undoLast(),
  "/": () => $("f-q").focus(),
  "?": () => $("help-dialog").showModal(),
};

document.addEventListener("keydown", (event) => {
  const typing = event.target.closest("input, textarea, select, dialog");
  if (typing || event.ctrlKey || event.metaKey || event.altKey || !KEYS[event.key]) return;
  event.preventDefault();
  KEYS[event.key]();
});

// Duplicate candidates side by side: both entities with their papers and evidence, the detector's score and
// reasons, and merge (keeping either end) or reject; the list reloads after each decision.
async function loadDuplicates() {
  const page = await api("GET", "/curation/duplicates?limit=50");
  const list = $("duplicates");
  list.replaceChildren();
  for (const item of page.items) list.append(candidate(item));
  say(page.total + " duplicate candidates" + (page.total > page.items.length ? ", the best " + page.items.length + " shown" : ""));
}

function candidate(item) {
  const box = el("article", undefined, {class: "candidate", "data-key": item.key});
  box.append(el("p", "score " + (item.score === null ? "?" : item.score.toFixed(2)) + ": " + item.reasons.join("; ")));
  const pair = el("div", undefined, {class: "pair"});
  for (const [end, other] of [[item.source, item.target], [item.target, item.source]]) {
    const side = el("section", undefined, {class: "end", "data-node": end.id});
    side.append(el("h3", end.label + ": " + (end.name || end.id)));
    if (end.aliases.length) side.append(el("p", "also: " + end.aliases.join(", ")));
    side.append(el("p", end.evidence + " extracted edges; status " + end.status));
    const papers = el("ul");
    for (const paper of end.papers) papers.append(el("li", paper.title || paper.id));
    side.append(papers);
    const keep = el("button", "Keep this, merge the other into it",
                    {type: "button", "aria-label": "keep " + (end.name || end.id) + ", merge " + (other.name || other.id)});
    keep.addEventListener("click", async () => {
      if (await confirmMerge(end.id, other.id)) await decide(() => mergeCandidate(item, end));
    });
    side.append(keep);
    pair.append(side);
  }
  const reject = el("button", "Not the same: reject", {type: "button", "aria-label": "reject candidate " + item.key});
  reject.addEventListener("click", () => decide(async () => {
    const edge = await api("GET", "/curation/edges/" + encodeURIComponent(item.edge_id));
    return api("POST", "/curation/edges/" + encodeURIComponent(item.edge_id) + "/reject",
               {reason: $("duplicate-reason").value.trim() || null}, edge.version);
  }));
  box.append(pair, reject);
  return box;
}

async function mergeCandidate(item, survivor) {
  const node = await api("GET", "/curation/nodes/" + encodeURIComponent(survivor.id));
  return api("POST", "/curation/duplicates/" + encodeURIComponent(item.edge_id) + "/merge",
             {keep: survivor === item.source ? "source" : "target", reason: $("duplicate-reason").value.trim() || null},
             node.version);
}

async function decide(call) {
  let message, failed = false;
  try {
    const result = await call();
    if (result && result.event) done.push(result.event.id);
    message = result && result.event ? result.event.action + " recorded" : "nothing to change";
  } catch (error) {
    [message, failed] = [error.message, true];
  }
  try {
    await Promise.all([loadDuplicates(), loadList()]);
  } catch (error) {
    [message, failed] = [error.message, true];
  }
  say(message, failed);
}

$("key-form").addEventListener("submit", useKey);
$("load-duplicates").addEventListener("click", () => loadDuplicates().catch((e) => say(e.message, true)));
$("filters").addEventListener("submit", (event) => {
  event.preventDefault();
  offset = 0;
  selected.clear();
  loadList().catch((e) => say(e.message, true));
});
$("f-queue").addEventListener("change", () => { $("seed-label").hidden = $("f-queue").value !== "sample"; });
function turn(by) {
  offset = Math.max(0, offset + by);
  loadList().catch((e) => say(e.message, true));
}
$("prev-page").addEventListener("click", () => turn(-PAGE_SIZE));
$("next-page").addEventListener("click", () => turn(PAGE_SIZE));
$("select-page").addEventListener("change", () => select(0, rows.length - 1, $("select-page").checked));
$("bulk-verify").addEventListener("click", () => bulk("verify"));
$("bulk-reject").addEventListener("click", () => bulk("reject"));
$("clear-selection").addEventListener("click", () => { selected.clear(); select(0, -1, false); });
$("show-help").addEventListener("click", () => $("help-dialog").showModal());
for (const action of ["verify", "reject", "flag"]) {
  $(action).addEventListener("click", () => status(action, undefined, true));
}
$("unflag").addEventListener("click", () => status("unflag"));
$("save-edit").addEventListener("click", () => {
  let properties;
  try { properties = JSON.parse($("edit-json").value); } catch (e) { say("the edit is not valid JSON", true); return; }
  act(() => api("PATCH", path(current.kind, current.ref), {properties, reason: $("reason").value.trim() || null},
                current.data.version));
});
$("merge").addEventListener("click", async () => {
  const duplicate = $("duplicate-id").value.trim();
  try {
    if (!(await confirmMerge(current.data.id, duplicate))) return;
  } catch (error) {
    say(error.message, true);
    return;
  }
  await act(() => api("POST", "/curation/merge",
    {survivor: current.data.id, duplicate, reason: $("reason").value.trim() || null}, current.data.version));
});
$("add-edge").addEventListener("click", () => act(async () => {
  const result = await api("POST", "/curation/edges", {source: current.data.id, type: $("edge-type").value.trim(),
                                                       target: $("edge-target").value.trim()});
  return {event: result.event, element: current.data};
}));
$("save-retype").addEventListener("click", () => act(() => api("POST", path(current.kind, current.ref) + "/retype",
  {type: $("retype").value, reason: $("reason").value.trim() || null}, current.data.version)));
$("save-relabel").addEventListener("click", () => act(() => api("POST", path(current.kind, current.ref) + "/relabel",
  {label: $("relabel").value, reason: $("reason").value.trim() || null}, current.data.version)));
$("feed-filters").addEventListener("submit", (event) => {
  event.preventDefault();
  loadFeed(false).catch((e) => say(e.message, true));
});
$("feed-more").addEventListener("click", () => loadFeed(true).catch((e) => say(e.message, true)));
$("remove-edge").addEventListener("click", () => act(() => api("DELETE", path(current.kind, current.ref), undefined,
                                                              current.data.version)));
if (key) { $("api-key").value = key; start(); }
