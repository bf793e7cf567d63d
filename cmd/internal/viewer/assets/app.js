// synaptic viewer: every answer comes from the catalog tools MCP serves
// (POST /view/api/call/{tool}); this file only draws them.
"use strict";

const $ = (id) => document.getElementById(id);
let cy = null, map = null, selected = null, pending = 0;

// call runs one catalog tool and returns {text, structured, isError}.
async function call(tool, args) {
  pending++;
  try {
    const r = await fetch("/view/api/call/" + encodeURIComponent(tool), {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(args || {}),
    });
    const body = await r.json();
    if (!r.ok) throw new Error(body.error || r.statusText);
    return body;
  } finally {
    pending--;
  }
}

function showError(e) {
  const el = $("error");
  el.textContent = String(e.message || e);
  el.hidden = false;
  setTimeout(() => { el.hidden = true; }, 6000);
}

function el(tag, text, attrs) {
  const e = document.createElement(tag);
  if (text != null) e.textContent = text;
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

// ref is how a node is named to the tools: its unique label@file.
const ref = (n) => n.qualified || n.label;

function link(text, onclick, attrs) {
  const a = el("a", text, attrs);
  a.addEventListener("click", (ev) => { ev.preventDefault(); onclick(); });
  return a;
}

async function search(q) {
  const ul = $("results");
  ul.replaceChildren(el("li", "searching…", { class: "hint" }));
  const res = await call("query_graph", { question: q });
  ul.replaceChildren();
  const nodes = (res.structured && res.structured.nodes) || [];
  if (!nodes.length) ul.append(el("li", res.text || "nothing found", { class: "hint" }));
  for (const n of nodes) {
    const li = el("li");
    li.append(link(n.label, () => focus(ref(n)), { "data-ref": ref(n) }), " ", el("small", n.source_file || ""));
    ul.append(li);
  }
}

function initGraph() {
  cy = cytoscape({
    container: $("cy"),
    style: [
      { selector: "node", style: { label: "data(label)", "font-size": 10, "background-color": "#8aa4f0", width: 14, height: 14, "text-valign": "bottom", "text-margin-y": 3 } },
      { selector: "node.seed", style: { "background-color": "#2a55d6", width: 20, height: 20 } },
      { selector: "node:selected", style: { "background-color": "#e8833a" } },
      { selector: "edge", style: { width: 1, "line-color": "#b8c0d0", "target-arrow-color": "#b8c0d0", "target-arrow-shape": "triangle", "curve-style": "bezier", label: "data(relation)", "font-size": 8, color: "#8790a3" } },
    ],
    wheelSensitivity: 0.3,
  });
  cy.on("tap", "node", (ev) => focus(ev.target.id()));
}

function addNode(id, label, cls) {
  const existing = cy.getElementById(id);
  if (existing.nonempty()) { if (cls) existing.addClass(cls); return; }
  cy.add({ group: "nodes", data: { id, label }, classes: cls || "" });
}

// expand adds a node's neighbours (get_neighbors) to the graph.
async function expand(r) {
  const res = await call("get_neighbors", { label: r, limit: 30 });
  if (res.isError) { $("node-text").textContent = res.text; return; }
  const s = res.structured;
  const seed = s.seed_qualified || s.seed;
  addNode(seed, s.seed, "seed");
  for (const n of s.neighbors) {
    const id = ref(n);
    addNode(id, n.label);
    const [src, dst] = n.direction === "in" ? [id, seed] : [seed, id];
    const eid = src + "|" + n.relation + "|" + dst;
    if (cy.getElementById(eid).empty()) cy.add({ group: "edges", data: { id: eid, source: src, target: dst, relation: n.relation } });
  }
  cy.layout({ name: "cose", animate: false, nodeDimensionsIncludeLabels: true }).run();
  listGraphNodes();
  if (s.truncated) $("node-text").textContent = `Showing ${s.neighbors.length} of ${s.total} neighbours.`;
}

function listGraphNodes() {
  const ul = $("graph-nodes");
  ul.replaceChildren();
  cy.nodes().sort((a, b) => a.data("label").localeCompare(b.data("label"))).forEach((n) => {
    const li = el("li");
    li.append(link(n.data("label"), () => focus(n.id()), { "data-ref": n.id() }));
    const at = n.id().lastIndexOf("@");
    if (at > 0) li.append(" ", el("small", n.id().slice(at + 1)));
    ul.append(li);
  });
  $("cy").dataset.nodes = cy.nodes().length;
  $("cy").dataset.edges = cy.edges().length;
}

// focus shows a node's details and expands it in the graph.
async function focus(r) {
  showTab("graph");
  const res = await call("get_node", { label: r });
  const meta = $("node-meta");
  meta.replaceChildren();
  $("node-text").textContent = "";
  if (res.isError || !res.structured || !res.structured.found) {
    $("node-title").textContent = r;
    $("node-actions").hidden = true;
    $("node-text").textContent = res.text;
    return;
  }
  const n = res.structured;
  selected = r;
  $("node-title").textContent = n.label;
  const dl = el("dl");
  for (const k of ["kind", "source_file", "degree", "community", "visibility", "loc", "id"]) {
    if (n[k] !== undefined && n[k] !== "") dl.append(el("dt", k), el("dd", String(n[k])));
  }
  meta.append(dl);
  $("node-actions").hidden = false;
  await expand(r);
  const node = cy.getElementById(r);
  if (node.nonempty()) { cy.elements().unselect(); node.select(); cy.animate({ center: { eles: node } }, { duration: 200 }); }
}

async function action(act) {
  if (!selected) return;
  const tool = { source: "get_source", callers: "find_callers", callees: "find_callees" }[act];
  if (act === "expand") return expand(selected);
  const res = await call(tool, { label: selected });
  $("node-text").textContent = res.text;
}

function showTab(name) {
  for (const b of document.querySelectorAll("nav button")) b.classList.toggle("on", b.dataset.tab === name);
  for (const t of document.querySelectorAll(".tab")) t.hidden = !t.classList.contains(name);
  if (name === "graph" && cy) cy.resize();
  if (name === "communities") loadCommunities();
  if (name === "gods") loadGods();
  if (name === "report") loadReport();
}

// loadCommunities draws each community as a bubble sized by its members
// (get_community pages), labelled with its busiest members.
async function loadCommunities() {
  if (map) { map.resize(); return; }
  const stats = await call("graph_stats", {});
  const count = Math.min((stats.structured && stats.structured.communities) || 0, 40);
  map = cytoscape({
    container: $("map"),
    style: [{ selector: "node", style: { label: "data(label)", "font-size": 10, "text-wrap": "wrap", "text-max-width": 140, "background-color": "#9fb6f5", width: "data(size)", height: "data(size)", "text-valign": "center" } }],
  });
  const lists = await Promise.all([...Array(count).keys()].map((id) => call("get_community", { community_id: id, limit: 3 })));
  lists.forEach((res, id) => {
    const m = /showing \d+ of (\d+)/.exec(res.text) || /(\d+) members?/.exec(res.text);
    const total = m ? Number(m[1]) : 1;
    const top = res.text.split("\n").slice(1).map((l) => l.trim().split("  ")[0]).filter((l) => l && !l.startsWith("+")).slice(0, 3);
    map.add({ group: "nodes", data: { id: "c" + id, label: `#${id} (${total})\n${top.join(", ")}`, size: 20 + 8 * Math.sqrt(total), text: res.text } });
  });
  map.layout({ name: "cose", animate: false }).run();
  map.on("tap", "node", (ev) => {
    $("node-title").textContent = "Community " + ev.target.id().slice(1);
    $("node-meta").replaceChildren();
    $("node-actions").hidden = true;
    $("node-text").textContent = ev.target.data("text");
  });
  $("map").dataset.communities = count;
}

async function loadGods() {
  const ol = $("gods");
  if (ol.childElementCount) return;
  const res = await call("god_nodes", { top_n: 25 });
  for (const g of (res.structured && res.structured.god_nodes) || []) {
    const li = el("li");
    li.append(link(g.label, () => focus(g.id)), " ", el("small", `degree ${g.degree}, ${g.test_count} tests reach it`));
    ol.append(li);
  }
}

async function loadReport() {
  const pre = $("report");
  if (pre.textContent) return;
  const r = await fetch("/view/api/report");
  const body = await r.json();
  pre.textContent = body.text || body.error;
}

// The page's state can be given in the URL, so a link (or a test) can
// open it searched and expanded: #q=WithTax&expand=Total@cart,…&source=X.
async function fromHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (p.get("q")) { $("q").value = p.get("q"); await search(p.get("q")); }
  for (const r of (p.get("expand") || "").split(",").filter(Boolean)) await focus(r);
  if (p.get("source") && selected) await action("source");
  if (p.get("tab")) showTab(p.get("tab"));
}

async function main() {
  initGraph();
  $("search").addEventListener("submit", (ev) => { ev.preventDefault(); search($("q").value).catch(showError); });
  for (const b of document.querySelectorAll("nav button")) b.addEventListener("click", () => showTab(b.dataset.tab));
  for (const b of document.querySelectorAll("#node-actions button")) b.addEventListener("click", () => action(b.dataset.act).catch(showError));
  const stats = await call("graph_stats", {});
  if (stats.structured) $("stats").textContent = `${stats.structured.nodes} nodes · ${stats.structured.edges} edges · ${stats.structured.communities} communities`;
  await fromHash();
  while (pending) await new Promise((r) => setTimeout(r, 20));
  document.body.dataset.state = "ready";
}

main().catch((e) => { showError(e); document.body.dataset.state = "error"; });
