// The workbench page: every edit sends the whole paytable to the server, which reads it with trey's loader and
// answers with the figures (HTML made by the server's templates) or the problems, each shown at its field.
// User text is only ever set as text (textContent, value), never as markup.
"use strict";

const holder = document.getElementById("paytable");
const start = JSON.parse(holder.dataset.json);
const fields = Array.from(document.querySelectorAll("input[data-path]"));
const status = document.getElementById("status");
const problemList = document.getElementById("problems");
const figures = document.getElementById("figures");
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
  for (const input of fields) {
    const path = JSON.parse(input.dataset.path);
    let at = paytable;
    for (const key of path.slice(0, -1)) at = at[key];
    at[path[path.length - 1]] = valueOf(input);
  }
  return { paytable, origin: start.origin };
}

const byPath = new Map(
  Array.from(document.querySelectorAll(".field")).map((f) => [JSON.stringify(JSON.parse(f.dataset.path)), f]),
);

function fieldOf(path) {
  if (!Array.isArray(path)) return null;
  for (let n = path.length; n > 0; n--) { // the field itself, or the nearest one above it
    const found = byPath.get(JSON.stringify(path.slice(0, n)));
    if (found) return found;
  }
  return null;
}

function showProblems(problems) {
  for (const field of document.querySelectorAll(".field")) {
    field.classList.remove("invalid");
    const p = field.querySelector(".problem");
    p.hidden = true;
    p.textContent = "";
  }
  problemList.replaceChildren();
  for (const problem of problems) {
    const words = problem.hint ? `${problem.message} (${problem.hint})` : problem.message;
    const field = fieldOf(problem.path);
    if (field) {
      field.classList.add("invalid");
      const p = field.querySelector(".problem");
      p.textContent = p.textContent ? `${p.textContent}; ${words}` : words;
      p.hidden = false;
    } else {
      const item = document.createElement("li");
      item.textContent = (problem.json_path ? `${problem.json_path}: ` : "") + words;
      problemList.append(item);
    }
  }
}

async function post(url, body) {
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body });
  return [response.status, await response.json()];
}

async function update(event) {
  const number = ++sent;
  const began = event && event.timeStamp ? event.timeStamp : performance.now(); // when the edit happened
  status.textContent = "Computing…";
  let answer;
  try {
    const [code, data] = await post("/api/figures", JSON.stringify(edited()));
    if (code !== 200) throw new Error(data.error || `the server answered ${code}`);
    answer = data;
  } catch (error) {
    if (number === sent) status.textContent = `Not computed: ${error.message}`;
    return;
  }
  if (number !== sent) return;
  showProblems(answer.problems);
  document.body.dataset.valid = answer.valid ? "true" : "false";
  for (const button of document.querySelectorAll(".download button")) button.disabled = !answer.valid;
  if (answer.valid) {
    figures.innerHTML = answer.figures; // made by the server's templates, every value escaped there
    await new Promise(requestAnimationFrame); // drawn: the time to the frame that shows the new figures
    const took = Math.round(performance.now() - began);
    document.body.dataset.took = String(took);
    status.textContent = `All figures are exact for this paytable (recomputed in ${took} ms).`;
  } else {
    status.textContent = "The paytable has problems: the figures shown are of the last valid one.";
  }
  document.body.dataset.updated = String(number);
}

for (const input of fields) input.addEventListener(input.dataset.kind === "bool" ? "change" : "input", update);

for (const form of document.querySelectorAll("form.download")) {
  form.addEventListener("submit", () => {
    form.querySelector("input[name=request]").value = JSON.stringify(edited());
    if (form.target === "comparison") {
      const frame = document.getElementById("comparison");
      frame.hidden = false;
      frame.scrollIntoView({ block: "nearest" });
    }
  });
}

for (const button of document.querySelectorAll("button.solve")) {
  button.addEventListener("click", async () => {
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
  });
}
