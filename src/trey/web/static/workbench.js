// The workbench page: every edit sends the whole paytable to the server, which reads it with trey's loader and
// answers with the figures, the summary and the form (HTML made by the server's templates, every value escaped
// there) or the problems, each shown at its field. User text is only ever set as text (textContent, value).
// The page says what state it is in, for its tests and anyone scripting it: body[data-ready] once it listens,
// body[data-sent] and body[data-updated] the numbers of the latest edit sent and of the latest answer shown,
// body[data-stale] while the figures shown are not of the form's table (dimmed once an answer is slow or invalid), #comparison[data-state] "loading",
// "loaded" or "closed", #saved[data-state] "saved", "exists" or "refused".
"use strict";

const holder = document.getElementById("paytable");
const start = JSON.parse(holder.dataset.json); // the last valid paytable, its origin and whether saving is allowed
const page = holder.dataset.page; // this page's id: the server drops an edit that a newer one of it replaces
const original = structuredClone(start.paytable); // the table as opened: each edited field says what it was
const editor = document.getElementById("editor");
const fieldsBox = document.getElementById("fields");
const yamlPane = document.getElementById("yaml");
const status = document.getElementById("status");
const problemList = document.getElementById("problems");
const figures = document.getElementById("figures");
const summaryBox = document.getElementById("summary");
const naming = document.getElementById("naming");
const newName = document.getElementById("new-name");
const titled = document.getElementById("titled");
const profile = document.getElementById("profile");
const comparison = document.getElementById("comparison");
const fileName = start.paytable.name; // the name the file gives the table
let current = start.paytable; // the data the form was built from: its fields' values are set on it
let isNew = !start.origin; // a table made here or opened from the user's own file: its documents are its own
let sent = 0; // the number of the latest request: an older answer arriving late is dropped
const SLOW_MS = 250; // an answer slower than this dims the figures shown (a quick one is not worth a repaint)

function stale(on, dim) {
  if (on) document.body.dataset.stale = "true";
  else delete document.body.dataset.stale;
  document.body.classList.toggle("dimmed", on && dim);
}

function refusal(data, code) {
  if (!data.error) return `the server answered ${code}`;
  return data.hint ? `${data.error} (${data.hint})` : data.error;
}

function whole(t) {
  return /^-?[0-9]{1,15}$/.test(t) ? Number(t) : t;
}

function valueOf(control) {
  const kind = control.dataset.kind;
  if (kind === "bool") return control.checked;
  if (kind === "hand" || kind === "strategy") {
    const custom = control.parentElement.querySelector("input.custom").value.trim();
    if (kind === "strategy") return control.value === "play_at_least" ? { play_at_least: custom } : control.value;
    return control.value === "" ? custom : control.value;
  }
  if (kind === "select") return control.value;
  if (kind === "select-int") return whole(control.value);
  const text = control.value.trim();
  if (kind === "int" || kind === "money" || kind === "odds") return whole(text);
  if (kind === "list" || kind === "money-list") return text === "" ? [] : text.split(",").map((t) => whole(t.trim()));
  return control.value;
}

function getAt(data, path) {
  let at = data;
  for (const key of path) {
    if (at === null || typeof at !== "object" || !(key in at)) return undefined;
    at = at[key];
  }
  return at;
}

function setAt(data, path, value) {
  let at = data;
  for (const key of path.slice(0, -1)) {
    if (at[key] === null || typeof at[key] !== "object") at[key] = {};
    at = at[key];
  }
  at[path[path.length - 1]] = value;
}

function deleteAt(data, path) {
  const parent = getAt(data, path.slice(0, -1));
  if (Array.isArray(parent)) parent.splice(path[path.length - 1], 1); // an option of the round: the others move up
  else if (parent && typeof parent === "object") delete parent[path[path.length - 1]];
}

function controls() {
  return fieldsBox.querySelectorAll("input[data-path], select[data-path]");
}

function formData() {
  const paytable = structuredClone(current);
  for (const control of controls()) setAt(paytable, JSON.parse(control.dataset.path), valueOf(control));
  return paytable;
}

function request(paytable) {
  return { paytable, origin: isNew ? null : start.origin, origin_sha256: isNew ? null : start.origin_sha256,
    profile: profile.value, new: isNew };
}

function edited() {
  return request(formData());
}

function byPath(selector, attribute) {
  return new Map(Array.from(document.querySelectorAll(selector)).map(
    (f) => [JSON.stringify(JSON.parse(f.dataset[attribute])), f]));
}

function fieldOf(path) {
  if (!Array.isArray(path)) return null;
  const fields = byPath("#fields .field", "path");
  for (let n = path.length; n > 0; n--) { // the field itself, or the nearest one above it
    const found = fields.get(JSON.stringify(path.slice(0, n)));
    if (found) return found;
  }
  return null;
}

function showProblems(problems, fromYaml) {
  for (const field of fieldsBox.querySelectorAll(".field")) {
    field.classList.remove("invalid");
    const p = field.querySelector(".problem");
    p.hidden = true;
    p.textContent = "";
  }
  problemList.replaceChildren();
  for (const problem of problems) {
    const words = problem.hint ? `${problem.message} (${problem.hint})` : problem.message;
    const field = fromYaml ? null : fieldOf(problem.path); // a YAML edit's problems are told by line
    if (field) {
      field.classList.add("invalid");
      const p = field.querySelector(".problem");
      p.textContent = p.textContent ? `${p.textContent}; ${words}` : words;
      p.hidden = false;
    }
    const item = document.createElement("li"); // every problem in view, however far down its field is
    const line = fromYaml && problem.line ? `line ${problem.line}:${problem.column}: ` : "";
    item.textContent = line + (problem.json_path ? `${problem.json_path}: ` : "") + words;
    problemList.append(item);
  }
}

// The profile's checks that failed, at the wager or side bet they are about.
function showFindings(findings) {
  const sections = byPath("#fields fieldset[data-section]", "section");
  for (const p of fieldsBox.querySelectorAll(".findings")) {
    p.hidden = true;
    p.textContent = "";
  }
  for (const finding of findings || []) {
    if (finding.result !== "FAIL") continue;
    const section = sections.get(JSON.stringify(finding.path));
    if (!section) continue;
    const p = section.querySelector(".findings");
    const words = `${profile.value}: ${finding.check} FAILS: ${finding.detail}`;
    p.textContent = p.textContent ? `${p.textContent}; ${words}` : words;
    p.hidden = false;
  }
}

function shown(value, control) {
  if (value === undefined) return null;
  if (control && control.tagName === "SELECT") {
    const key = typeof value === "object" && value !== null ? "play_at_least" : String(value);
    const option = Array.from(control.options).find((o) => o.value === key);
    if (option && key !== "play_at_least" && key !== "") return option.textContent;
    if (key === "play_at_least") return `play ${value.play_at_least} or better`;
  }
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.join(", ");
  return String(value);
}

// Beside each field whose value is not the file's: what the file said ("was 3"), or that it is new.
function showWas() {
  for (const control of controls()) {
    const field = control.closest(".field");
    const was = field.querySelector(".was");
    const path = JSON.parse(control.dataset.path);
    const before = getAt(original, path);
    const now = valueOf(control);
    const same = JSON.stringify(before) === JSON.stringify(now);
    field.classList.toggle("edited", !same);
    was.hidden = same;
    was.textContent = same ? "" : before === undefined ? "new" : `was ${shown(before, control)}`;
  }
}

async function post(url, body, edit) {
  const headers = { "Content-Type": "application/json" };
  if (edit) headers["X-Trey-Edit"] = `${page}:${edit}`;
  const response = await fetch(url, { method: "POST", headers, body });
  return [response.status, await response.json()];
}

// What the documents of the table will be titled, as the server says (it decides: the page only shows it). A table
// that differs from its file asks for a name; until one is given, the title says which file it was edited from.
function showDocuments(documents, name) {
  const refused = documents && documents.problem;
  naming.classList.toggle("refused", Boolean(refused));
  naming.hidden = isNew || !(refused || (documents && documents.differs));
  if (refused) {
    titled.textContent = `No documents: ${documents.problem} (${documents.hint})`;
  } else if (documents) {
    titled.textContent = documents.named
      ? `Its documents are titled “${documents.title}”.`
      : `Until you name it, its documents are titled “${documents.title}”.`;
    if (document.activeElement !== newName) newName.value = documents.named ? name : "";
  }
  return !refused;
}

// Put the server's HTML (its templates', every value escaped there) into `box`, replacing only the children that
// differ: an edit of one wager's pay leaves the other wagers' figures as they are, so the browser does not style,
// lay out and paint them again (or collect them as garbage).
function redraw(box, html) {
  const made = document.createElement("template");
  made.innerHTML = html;
  const now = Array.from(box.children);
  const next = Array.from(made.content.children);
  if (now.length !== next.length || next.some((n, i) => n.id !== now[i].id)) {
    box.replaceChildren(made.content); // other wagers, or other parts: all of it anew
    return;
  }
  next.forEach((n, i) => { if (!n.isEqualNode(now[i])) now[i].replaceWith(n); });
}

// mode: "form" (a value edited), "yaml" (the YAML pane), "rebuild" (a row or part added or removed: the form is
// made again from `data`).
async function update(event, mode, data) {
  const number = ++sent;
  document.body.dataset.sent = String(number);
  stale(true, document.body.classList.contains("dimmed"));
  // A slow answer is said and dimmed; a quick one changes the status once, when it comes (no layout and paint of
  // the status while the server counts, on a machine whose CPUs it shares).
  setTimeout(() => {
    if (number !== sent || document.body.dataset.updated === String(number)) return; // answered, or replaced
    stale(true, true);
    status.textContent = "Computing…";
  }, SLOW_MS);
  const began = event && event.timeStamp ? event.timeStamp : performance.now(); // when the edit happened
  const body = mode === "yaml"
    ? { yaml: yamlPane.value, origin: isNew ? null : start.origin, origin_sha256: isNew ? null : start.origin_sha256,
      profile: profile.value, new: isNew }
    : request(mode === "rebuild" ? data : formData());
  body.form = mode !== "form"; // the form made again by the server: only when a row was added or removed, or the YAML edited
  let answer;
  try {
    const [code, said] = await post("/api/figures", JSON.stringify(body), number);
    if (code !== 200) throw new Error(refusal(said, code));
    answer = said;
  } catch (error) {
    if (number === sent) {
      status.textContent = `Not computed: ${error.message}`;
      document.body.dataset.updated = String(number);
    }
    return;
  }
  if (number !== sent) return;
  if (mode === "rebuild" && answer.fields) {
    fieldsBox.innerHTML = answer.fields; // the server's template, every value escaped there
    current = answer.valid ? answer.paytable : data;
  }
  showProblems(answer.problems, mode === "yaml");
  document.body.dataset.valid = answer.valid ? "true" : "false";
  const documents = answer.valid ? showDocuments(answer.documents, answer.paytable.name) : false;
  for (const form of document.querySelectorAll("form.download")) {
    form.querySelector("button").disabled = !answer.valid || !(documents || isNew);
  }
  const save = document.getElementById("save");
  if (save) save.disabled = !answer.valid;
  document.getElementById("compare").disabled = !answer.valid;
  if (answer.valid) {
    redraw(figures, answer.figures); // made by the server's templates, every value escaped there
    redraw(summaryBox, answer.summary);
    current = answer.paytable;
    if (mode === "yaml") fieldsBox.innerHTML = answer.fields; // the form of the new paytable
    else yamlPane.value = answer.yaml;
    showFindings(answer.findings);
    document.getElementById("title").textContent = answer.paytable.name;
    stale(false, false);
    if (!comparison.hidden) refreshComparison();
    await new Promise(requestAnimationFrame); // drawn: the time to the frame that shows the new figures
    const took = Math.round(performance.now() - began);
    document.body.dataset.took = String(took);
    status.textContent = `All figures are exact for this paytable (recomputed in ${took} ms).`;
  } else {
    stale(true, true);
    status.textContent = "The paytable has problems (listed here): the figures shown, dimmed, are of the last valid one.";
  }
  showWas();
  document.body.dataset.updated = String(number);
}

editor.addEventListener("input", (event) => {
  const target = event.target;
  if (target === yamlPane) update(event, "yaml");
  else if (target.matches("input[data-path]:not([data-kind=bool]), input.custom")) update(event, "form");
});
editor.addEventListener("change", (event) => {
  const target = event.target;
  if (target.matches("select.addition")) {
    const option = target.selectedOptions[0];
    if (!option || !option.dataset.sets) return;
    const data = formData();
    for (const [path, value] of JSON.parse(option.dataset.sets)) setAt(data, path, value);
    update(event, "rebuild", data);
  } else if (target.matches("select[data-kind=hand], select[data-kind=strategy]")) {
    const custom = target.parentElement.querySelector("input.custom");
    const own = target.value === "" || target.value === "play_at_least";
    custom.hidden = !own;
    if (own && !custom.value.trim()) custom.value = "Q-6-4";
    update(event, "form");
  } else if (target.matches("select[data-path], input[data-kind=bool]")) {
    update(event, "form");
  }
});
editor.addEventListener("click", (event) => {
  const remove = event.target.closest("button.remove, button.remove-section");
  if (remove) {
    const data = formData();
    deleteAt(data, JSON.parse(remove.dataset.remove));
    update(event, "rebuild", data);
  }
});
profile.addEventListener("change", (event) => update(event, "form"));
document.getElementById("target").addEventListener("keydown", (event) => {
  if (event.key === "Enter") event.preventDefault(); // the form is never submitted
});

newName.addEventListener("input", (event) => {
  const field = fieldsBox.querySelector(`input[data-path='["name"]']`);
  field.value = newName.value.trim() || fileName; // no name: the file's, and the documents say "edited from"
  update(event, "form");
});

document.getElementById("upload").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  if (file.size > 1 << 20) {
    status.textContent = `${file.name} is larger than a paytable may be (1 MiB)`;
    return;
  }
  yamlPane.value = await file.text();
  document.getElementById("yaml-pane").open = true;
  isNew = true; // not the folder's file: its documents are its own
  naming.hidden = true;
  update(event, "yaml");
});

for (const form of document.querySelectorAll("form.download")) {
  form.addEventListener("submit", () => {
    form.querySelector("input[name=request]").value = JSON.stringify(edited());
  });
}

// The comparison with the folder's tables: a panel of the page, made again after every edit while it is open.
let comparing = 0;
async function refreshComparison() {
  const number = ++comparing;
  comparison.dataset.state = "loading";
  comparison.classList.add("stale");
  const [code, said] = await post("/api/compare", JSON.stringify(edited()));
  if (number !== comparing || comparison.hidden) return;
  if (code === 200) {
    comparison.innerHTML = said.html; // the server's template, every value escaped there
  } else {
    const p = document.createElement("p");
    p.className = "problem";
    p.textContent = refusal(said, code);
    comparison.replaceChildren(p);
  }
  comparison.classList.remove("stale");
  comparison.dataset.state = "loaded";
}
document.getElementById("compare").addEventListener("click", () => {
  comparison.hidden = false;
  refreshComparison();
  comparison.style.scrollMarginTop = `${document.getElementById("overview").offsetHeight + 8}px`; // below the summary
  comparison.scrollIntoView({ block: "start" });
});
comparison.addEventListener("click", (event) => {
  if (event.target.closest("#close-comparison")) {
    comparison.hidden = true;
    comparison.replaceChildren();
    comparison.dataset.state = "closed";
  }
});

// Solve: the exact pay for the target, as a fraction and a decimal, and the printable pays that bracket it, each
// with a button that puts it in the field.
editor.addEventListener("click", async (event) => {
  const use = event.target.closest("button.use");
  if (use) {
    const input = use.closest(".field").querySelector("input[data-path]");
    input.value = use.dataset.pays;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    return;
  }
  const button = event.target.closest("button.solve");
  if (!button) return;
  const output = button.parentElement.querySelector("output");
  output.textContent = "solving…";
  const asked = { ...edited(), wager: button.dataset.wager, row: button.dataset.row,
    house_edge: document.getElementById("target").value };
  const [code, data] = await post("/api/solve", JSON.stringify(asked));
  if (code !== 200) {
    output.textContent = refusal(data, code);
    return;
  }
  const line = document.createElement("span");
  line.className = "exact";
  line.textContent = `${data.target_percent} needs exactly ${data.exact_pay_decimal} to 1 (${data.exact_pay} to 1).`;
  const pays = document.createElement("span");
  pays.className = "candidates";
  data.candidates.forEach((c, i) => {
    const choice = document.createElement("button");
    choice.type = "button";
    choice.className = i < 2 ? "use bracket" : "use";
    choice.dataset.pays = c.pays;
    choice.textContent = `use ${c.pays} (${c.house_edge_percent})`;
    pays.append(choice);
  });
  output.replaceChildren(line, pays);
});

// Save (trey serve DIR --writable): into the folder under the name given, a file of that name replaced only when
// "replace it" confirms it.
const saveButton = document.getElementById("save");
if (saveButton) {
  const saved = document.getElementById("saved");
  const replace = document.getElementById("save-replace");
  const saveAs = async (replacing) => {
    replace.hidden = true;
    saved.textContent = "saving…";
    delete saved.dataset.state;
    const asked = { ...edited(), file: document.getElementById("save-name").value, replace: replacing };
    const [code, data] = await post("/api/save", JSON.stringify(asked));
    if (code === 200) {
      saved.textContent = `Saved as ${data.saved}. `;
      const link = document.createElement("a");
      link.href = data.open;
      link.textContent = "open it";
      saved.append(link);
      saved.dataset.state = "saved";
    } else {
      saved.textContent = refusal(data, code);
      saved.dataset.state = data.exists ? "exists" : "refused";
      replace.hidden = !data.exists;
    }
  };
  saveButton.addEventListener("click", () => saveAs(false));
  replace.addEventListener("click", () => saveAs(true));
}

showWas();
document.body.dataset.ready = "true"; // every listener is in place: edits from now on are seen
