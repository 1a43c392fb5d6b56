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

function say(text, isError) {
  $("message").textContent = text;
  $("message").className = isError ? "error" : "";
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
    await loadQueue();
  } catch (error) {
    say(error.message, true);
  }
}

async function loadQueue() {
  const items = await api("GET", "/curation/queue?limit=200");
  const body = $("queue").tBodies[0];
  body.replaceChildren();
  for (const item of items) {
    const row = el("tr", undefined, {"data-element": item.element});
    row.append(el("td", item.why), el("td", item.label), el("td", item.name),
               el("td", item.confidence === null ? "" : item.confidence.toFixed(2)));
    const open = el("button", "Open", {type: "button", "aria-label": "open " + item.label + " " + (item.name || item.element)});
    open.addEventListener("click", () => openElement(item.element_kind, item.element));
    const cell = el("td");
    cell.append(open);
    row.append(cell);
    body.append(row);
  }
  say(items.length + " items to review");
}

function path(kind, ref) {
  return "/curation/" + (kind === "node" ? "nodes/" : "edges/") + encodeURIComponent(ref);
}

async function openElement(kind, ref) {
  try {
    const data = await api("GET", path(kind, ref));
    current = {kind, ref: kind === "node" ? data.id : data.edge_id, data};
    render();
    await Promise.all([loadEvidence(), loadNeighbours(), loadHistory()]);
  } catch (error) {
    say(error.message, true);
  }
}

function render() {
  const d = current.data;
  $("element-panel").hidden = false;
  $("element-title").textContent = d.kind === "node" ? d.label + " " + d.id : d.source + " -[" + d.type + "]-> " + d.target;
  const status = d.properties.verification_status || "";
  $("status").textContent = status;
  $("status").className = "status-" + status;
  $("version").textContent = d.version;
  $("remove-edge").hidden = d.kind !== "edge";
  $("merge").disabled = d.kind !== "node";
  const body = $("properties").tBodies[0];
  body.replaceChildren();
  for (const name of Object.keys(d.properties).sort()) {
    const value = d.properties[name];
    const row = el("tr");
    row.append(el("th", name, {scope: "row"}), el("td", typeof value === "string" ? value : JSON.stringify(value)));
    body.append(row);
  }
}

async function loadEvidence() {
  const img = $("evidence");
  const id = current.kind === "node" ? current.data.id : current.data.edge_id;
  $("evidence-note").textContent = "";
  img.removeAttribute("src");
  const response = await fetch("/evidence/" + encodeURIComponent(id) + ".png", {headers: {"X-API-Key": key}});
  if (!response.ok) {
    $("evidence-note").textContent = "no evidence image for this element";
    img.hidden = true;
    return;
  }
  img.hidden = false;
  img.src = URL.createObjectURL(await response.blob());
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
  const list = $("history");
  list.replaceChildren();
  for (const event of events) {
    const item = el("li", undefined, {"data-event": event.id});
    const text = event.at + " " + event.actor + " " + event.action +
      (event.reason ? ": " + event.reason : "") + (event.undone_by ? " (undone)" : "");
    item.append(el("span", text, {class: "event"}));
    if (!event.undone_by && event.action !== "split") {
      const undo = el("button", "Undo", {type: "button", "aria-label": "undo " + event.action + " of " + event.at});
      undo.addEventListener("click", () => act(() => api("POST", "/curation/undo/" + encodeURIComponent(event.id), {})));
      item.append(" ", undo);
    }
    list.append(item);
  }
}

async function act(call) {
  try {
    const result = await call();
    if (result && result.element) {
      current.data = result.element;
      current.ref = result.element.kind === "node" ? result.element.id : result.element.edge_id;
      render();
      await loadHistory();
    } else {
      $("element-panel").hidden = true;
    }
    say(result && result.event ? result.event.action + " recorded" : "nothing to change");
    await loadQueue();
  } catch (error) {
    say(error.message, true);
    if (error.status === 409) await openElement(current.kind, current.ref);
  }
}

function status(action) {
  const reason = $("reason").value.trim() || null;
  return act(() => api("POST", path(current.kind, current.ref) + "/" + action, {reason}, current.data.version));
}

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
    keep.addEventListener("click", () => decide(() => mergeCandidate(item, end)));
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
    message = result && result.event ? result.event.action + " recorded" : "nothing to change";
  } catch (error) {
    [message, failed] = [error.message, true];
  }
  try {
    await Promise.all([loadDuplicates(), loadQueue()]);
  } catch (error) {
    [message, failed] = [error.message, true];
  }
  say(message, failed);
}

$("key-form").addEventListener("submit", useKey);
$("load-duplicates").addEventListener("click", () => loadDuplicates().catch((e) => say(e.message, true)));
$("reload-queue").addEventListener("click", () => loadQueue().catch((e) => say(e.message, true)));
for (const action of ["verify", "reject", "flag", "unflag"]) $(action).addEventListener("click", () => status(action));
$("save-edit").addEventListener("click", () => {
  let properties;
  try { properties = JSON.parse($("edit-json").value); } catch (e) { say("the edit is not valid JSON", true); return; }
  act(() => api("PATCH", path(current.kind, current.ref), {properties, reason: $("reason").value.trim() || null},
                current.data.version));
});
$("merge").addEventListener("click", () => act(() => api("POST", "/curation/merge",
  {survivor: current.data.id, duplicate: $("duplicate-id").value.trim(), reason: $("reason").value.trim() || null},
  current.data.version)));
$("add-edge").addEventListener("click", () => act(async () => {
  const result = await api("POST", "/curation/edges", {source: current.data.id, type: $("edge-type").value.trim(),
                                                       target: $("edge-target").value.trim()});
  return {event: result.event, element: current.data};
}));
$("remove-edge").addEventListener("click", () => act(() => api("DELETE", path(current.kind, current.ref), undefined,
                                                              current.data.version)));
if (key) { $("api-key").value = key; start(); }
