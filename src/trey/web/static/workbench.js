// The workbench page: every edit sends the whole paytable to the server, which reads it with trey's loader and
// answers with the figures (HTML made by the server's templates) or the problems, each shown at its field.
// User text is only ever set as text (textContent, value), never as markup.
// The page says what state it is in, for its tests and anyone scripting it: body[data-ready] once it listens,
// body[data-sent] and body[data-updated] the numbers of the latest edit sent and of the latest answer shown,
// #comparison[data-state] "loading" then "loaded".
"use strict";

const holder = document.getElementById("paytable");
const start = JSON.parse(holder.dataset.json); // the last valid paytable: the form's values are set on it
const page = holder.dataset.page; // this page's id: the server drops an edit that a newer one of it replaces
const editor = document.getElementById("editor");
const fieldsBox = document.getElementById("fields");
const yamlPane = document.getElementById("yaml");
const status = document.getElementById("status");
const problemList = document.getElementById("problems");
const figures = document.getElementById("figures");
const naming = document.getElementById("naming");
const newName = document.getElementById("new-name");
const titled = document.getElementById("titled");
const fileName = start.paytable.name; // the name the file gives the table
let sent = 0; // the number of the latest request: an older answer arriving late is dropped

function valueOf(input) {
  const kind = input.dataset.kind;
  if (kind === "bool") return input.checked;
  const text = input.value.trim();
  const whole = (t) => (/^-?[0-9]{1,15}$/.test(t) ? Number(t) : t);
  if (kind === "int") return whole(text);
  if (kind === "list") return text === "" ? [] : text.split(",").map((t) => whole(t.trim()));
  return input.value;
}

function edited() {
  const paytable = structuredClone(start.paytable);
  for (const input of fieldsBox.querySelectorAll("input[data-path]")) {
    const path = JSON.parse(input.dataset.path);
    let at = paytable;
    for (const key of path.slice(0, -1)) at = at[key];
    at[path[path.length - 1]] = valueOf(input);
  }
  return { paytable, origin: start.origin, origin_sha256: start.origin_sha256 };
}

function fieldOf(path) {
  if (!Array.isArray(path)) return null;
  const byPath = new Map(
    Array.from(fieldsBox.querySelectorAll(".field")).map((f) => [JSON.stringify(JSON.parse(f.dataset.path)), f]),
  );
  for (let n = path.length; n > 0; n--) { // the field itself, or the nearest one above it
    const found = byPath.get(JSON.stringify(path.slice(0, n)));
    if (found) return found;
  }
  return null;
}

function showProblems(problems, fromYaml) {
  for (const field of document.querySelectorAll(".field")) {
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
    } else {
      const item = document.createElement("li");
      const line = fromYaml && problem.line ? `line ${problem.line}:${problem.column}: ` : "";
      item.textContent = line + (problem.json_path ? `${problem.json_path}: ` : "") + words;
      problemList.append(item);
    }
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
  naming.hidden = !(refused || (documents && documents.differs));
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

async function update(event, fromYaml) {
  const number = ++sent;
  document.body.dataset.sent = String(number);
  const began = event && event.timeStamp ? event.timeStamp : performance.now(); // when the edit happened
  status.textContent = "Computing…";
  const request = fromYaml ? { yaml: yamlPane.value, origin: start.origin, origin_sha256: start.origin_sha256 }
    : edited();
  let answer;
  try {
    const [code, data] = await post("/api/figures", JSON.stringify(request), number);
    if (code !== 200) throw new Error(data.error || `the server answered ${code}`);
    answer = data;
  } catch (error) {
    if (number === sent) {
      status.textContent = `Not computed: ${error.message}`;
      document.body.dataset.updated = String(number);
    }
    return;
  }
  if (number !== sent) return;
  showProblems(answer.problems, fromYaml);
  document.body.dataset.valid = answer.valid ? "true" : "false";
  const documents = answer.valid ? showDocuments(answer.documents, answer.paytable.name) : false;
  for (const form of document.querySelectorAll("form.download")) {
    form.querySelector("button").disabled = !answer.valid || (!documents && form.target !== "comparison");
  }
  if (answer.valid) {
    figures.innerHTML = answer.figures; // made by the server's templates, every value escaped there
    start.paytable = answer.paytable;
    if (fromYaml) fieldsBox.innerHTML = answer.fields; // the form of the new paytable (the server's template)
    else yamlPane.value = answer.yaml;
    await new Promise(requestAnimationFrame); // drawn: the time to the frame that shows the new figures
    const took = Math.round(performance.now() - began);
    document.body.dataset.took = String(took);
    status.textContent = `All figures are exact for this paytable (recomputed in ${took} ms).`;
  } else {
    status.textContent = "The paytable has problems: the figures shown are of the last valid one.";
  }
  document.body.dataset.updated = String(number);
}

editor.addEventListener("input", (event) => {
  if (event.target === yamlPane) update(event, true);
  else if (event.target.matches("input[data-path]:not([data-kind=bool])")) update(event, false);
});
editor.addEventListener("change", (event) => {
  if (event.target.matches("input[data-kind=bool]")) update(event, false);
});

newName.addEventListener("input", (event) => {
  const field = fieldsBox.querySelector(`input[data-path='["name"]']`);
  field.value = newName.value.trim() || fileName; // no name: the file's, and the documents say "edited from"
  update(event, false);
});

const frame = document.getElementById("comparison");
frame.addEventListener("load", () => {
  if (frame.dataset.state === "loading") frame.dataset.state = "loaded";
});

for (const form of document.querySelectorAll("form.download")) {
  form.addEventListener("submit", () => {
    form.querySelector("input[name=request]").value = JSON.stringify(edited());
    if (form.target === "comparison") {
      frame.dataset.state = "loading";
      frame.hidden = false;
      frame.scrollIntoView({ block: "nearest" });
    }
  });
}

editor.addEventListener("click", async (event) => {
  const button = event.target.closest("button.solve");
  if (!button) return;
  {
    const output = button.parentElement.querySelector("output");
    output.textContent = "solving…";
    const request = { ...edited(), wager: button.dataset.wager, row: button.dataset.row,
      house_edge: document.getElementById("target").value };
    const [code, data] = await post("/api/solve", JSON.stringify(request));
    if (code !== 200) {
      output.textContent = data.error || `the server answered ${code}`;
      return;
    }
    const nearest = data.candidates.map((c) => `${c.pays} (${c.house_edge_percent})`).join(", ");
    output.textContent = `exactly ${data.exact_pay} to 1; nearest: ${nearest}`;
  }
});

document.body.dataset.ready = "true"; // every listener is in place: edits from now on are seen
