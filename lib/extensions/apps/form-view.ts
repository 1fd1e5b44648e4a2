import { ELICITATION_META_KEY, FORM_SUBMIT_TOOL } from './app-ids';

/**
 * The framework's form View (served at `ui://phantom-mcp/elicitation`): plain HTML and the
 * inlined ext-apps SDK, no framework. On a tool result it renders the pending form of
 * `_meta["io.github.phantom-mcp/elicitation"]` (the flat schema MCP forms allow: strings with
 * formats, enums and titled `oneOf`, numbers and integers with bounds, booleans, multi-selects),
 * or the result's text when none is pending. Submit, Decline and Cancel call the app-only submit
 * tool; what that returns (the final result, the next form, or the same form with issues) is
 * rendered the same way, and a final outcome is told to the model (`updateModelContext`).
 * Everything from the server is written with `textContent`, never as markup.
 */
export function formViewHtml(): string {
  const constants = JSON.stringify({ metaKey: ELICITATION_META_KEY, submitTool: FORM_SUBMIT_TOOL }).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Form</title>
<script data-mcp-apps-sdk></script>
<style>
  body { font-family: system-ui, sans-serif; margin: 12px; color: CanvasText; background: Canvas; }
  [hidden] { display: none !important; }
  form { display: grid; gap: 10px; max-width: 32rem; }
  label { display: grid; gap: 4px; font-weight: 600; }
  label.inline { display: flex; align-items: center; gap: 6px; }
  fieldset { border: 1px solid GrayText; border-radius: 6px; }
  .hint { font-weight: 400; font-size: 0.85em; opacity: 0.8; }
  .issues { color: #b00020; white-space: pre-wrap; }
  .actions { display: flex; gap: 8px; }
  #message { font-weight: 600; }
  #outcome { white-space: pre-wrap; }
</style>
</head>
<body>
<p id="message">Waiting for the tool…</p>
<p id="issues" class="issues" hidden></p>
<form id="form" novalidate hidden></form>
<p id="outcome"></p>
<script type="module">
const { App } = globalThis.McpApps;
const { metaKey, submitTool } = ${constants};
const app = new App({ name: 'phantom-mcp-form', version: '1.0.0' }, {});
const message = document.getElementById('message');
const issues = document.getElementById('issues');
const form = document.getElementById('form');
const outcome = document.getElementById('outcome');
let pending;

const element = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = String(value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  node.append(...children);
  return node;
};
const textOf = (result) => (result.content ?? []).filter((block) => block.type === 'text').map((block) => block.text).join('\\n');
const choicesOf = (schema) => Array.isArray(schema.oneOf) ? schema.oneOf.map((choice) => [choice.const, choice.title ?? choice.const])
  : Array.isArray(schema.enum) ? schema.enum.map((value, index) => [value, schema.enumNames?.[index] ?? value]) : undefined;
const INPUT_TYPES = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };

/** One field of the flat schema: its input, and how its value is read back. */
function field(name, schema, required) {
  const title = schema.title ?? name;
  const hint = schema.description ? element('span', { class: 'hint', text: schema.description }) : '';
  if (schema.type === 'array') {
    const choices = choicesOf(schema.items ?? {}) ?? (Array.isArray(schema.items?.anyOf) ? schema.items.anyOf.map((c) => [c.const, c.title ?? c.const]) : []);
    const boxes = choices.map(([value, label]) => element('input', { type: 'checkbox', name, value, checked: (schema.default ?? []).includes(value) }));
    const set = element('fieldset', {}, element('legend', { text: title }), hint, ...boxes.map((box, i) => element('label', { class: 'inline' }, box, choices[i][1])));
    return { node: set, read: () => boxes.filter((box) => box.checked).map((box) => box.value) };
  }
  if (schema.type === 'boolean') {
    const box = element('input', { type: 'checkbox', name, checked: schema.default === true });
    return { node: element('label', { class: 'inline' }, box, title, hint), read: () => box.checked };
  }
  const choices = schema.type === 'string' ? choicesOf(schema) : undefined;
  let input;
  if (choices) {
    input = element('select', { name, required }, ...(required ? [] : [element('option', { value: '', text: '' })]),
      ...choices.map(([value, label]) => element('option', { value, text: label, selected: schema.default === value })));
  } else if (schema.type === 'number' || schema.type === 'integer') {
    input = element('input', { type: 'number', name, required, min: schema.minimum, max: schema.maximum, step: schema.type === 'integer' ? 1 : 'any', value: schema.default });
  } else {
    input = element('input', { type: INPUT_TYPES[schema.format] ?? 'text', name, required, minlength: schema.minLength, maxlength: schema.maxLength, value: schema.default });
  }
  const read = () => {
    const raw = input.value;
    if (raw === '') return undefined;
    if (schema.type === 'number' || schema.type === 'integer') return Number(raw);
    if (schema.format === 'date-time') return new Date(raw).toISOString();
    return raw;
  };
  return { node: element('label', {}, title, hint, input), read };
}

function showForm(request) {
  pending = request;
  message.textContent = request.message;
  issues.hidden = !request.issues;
  issues.textContent = (request.issues ?? []).join('\\n');
  outcome.textContent = '';
  const schema = request.requestedSchema ?? {};
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {}).map(([name, property]) => [name, field(name, property, required.has(name))]);
  const buttons = element('div', { class: 'actions' },
    element('button', { type: 'button', id: 'submit', text: 'Submit' }),
    element('button', { type: 'button', id: 'decline', text: 'Decline' }),
    element('button', { type: 'button', id: 'cancel', text: 'Cancel' }));
  form.replaceChildren(...fields.map(([, f]) => f.node), buttons);
  form.hidden = false;
  // No form submission: hosts sandbox Views without allow-forms. The server validates the answer.
  const accept = () => {
    const content = {};
    for (const [name, f] of fields) {
      const value = f.read();
      if (value !== undefined) content[name] = value;
    }
    void submit('accept', content);
  };
  form.onsubmit = (event) => { event.preventDefault(); accept(); };
  buttons.querySelector('#submit').onclick = accept;
  buttons.querySelector('#decline').onclick = () => void submit('decline');
  buttons.querySelector('#cancel').onclick = () => void submit('cancel');
}

function show(result) {
  const request = result._meta?.[metaKey];
  if (request) return showForm(request);
  form.hidden = true;
  issues.hidden = true;
  message.textContent = result.isError ? 'The tool reported an error' : 'Done';
  outcome.textContent = textOf(result);
}

async function submit(action, content) {
  for (const button of form.querySelectorAll('button')) button.disabled = true;
  let result;
  try {
    result = await app.callServerTool({ name: submitTool, arguments: content === undefined ? { token: pending.token, action } : { token: pending.token, action, content } });
  } catch (error) {
    issues.hidden = false;
    issues.textContent = String(error?.message ?? error);
    for (const button of form.querySelectorAll('button')) button.disabled = false;
    return;
  }
  show(result);
  // The model saw only that the user was being asked: tell it how that ended (or what is asked next).
  const next = result._meta?.[metaKey];
  const said = next ? (next.issues ? 'The user submitted an invalid answer and is asked again: ' + next.message : 'The user answered; they are now asked: ' + next.message)
    : (action === 'accept' ? '' : 'The user chose to ' + action + ' the form. ') + 'The tool finished: ' + textOf(result);
  try { await app.updateModelContext({ content: [{ type: 'text', text: said }] }); } catch { /* a host without it */ }
}

app.ontoolresult = (result) => show(result);
await app.connect();
</script>
</body>
</html>
`;
}
