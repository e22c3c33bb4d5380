import type http from 'node:http';
import type { ModelRoute } from './modelServer.js';

// What the real services reject, with their wording, so the local wire servers fail where
// production would. Each rule mirrors a 400 seen from the real API.

type Body = Record<string, unknown>;
/** A rejected request: the HTTP status and the JSON error body the real service sends. */
export interface Rejection {
  status: number;
  body: unknown;
}

const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const TOP_COMBINATORS = ['oneOf', 'anyOf', 'allOf'];

function openAiError(message: string, param: string | null, code: string | null = null): Rejection {
  return { status: 400, body: { error: { message, type: 'invalid_request_error', param, code } } };
}
function anthropicError(message: string, status = 400): Rejection {
  return { status, body: { type: 'error', error: { type: status === 401 ? 'authentication_error' : 'invalid_request_error', message } } };
}

/** The first reason the real service would reject this request, or undefined. */
export function rejectionOf(route: ModelRoute, body: Body, headers: http.IncomingHttpHeaders): Rejection | undefined {
  if (route === 'chat') return chatRejection(body, headers);
  if (route === 'messages') return messagesRejection(body, headers);
  return responsesRejection(body, headers);
}

function bearerMissing(headers: http.IncomingHttpHeaders): Rejection | undefined {
  if (!/^Bearer \S+/.test(String(headers.authorization ?? '')))
    return {
      status: 401,
      body: { error: { message: "You didn't provide an API key.", type: 'invalid_request_error', param: null, code: null } },
    };
  return undefined;
}

function functionSchemaError(name: string, parameters: unknown, param: string): Rejection | undefined {
  if (parameters === undefined) return undefined;
  const type = isObject(parameters) ? parameters.type : undefined;
  if (type !== 'object')
    return openAiError(
      `Invalid schema for function '${name}': schema must be a JSON Schema of 'type: "object"', got 'type: "${type ?? 'None'}"'.`,
      param,
      'invalid_function_parameters',
    );
  return undefined;
}

function duplicateName(names: string[]): string | undefined {
  return names.find((n, i) => names.indexOf(n) !== i);
}

// ---- Chat Completions

function chatRejection(body: Body, headers: http.IncomingHttpHeaders): Rejection | undefined {
  const auth = bearerMissing(headers);
  if (auth) return auth;
  if (typeof body.model !== 'string') return openAiError("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return openAiError("Invalid 'messages': empty array. Expected an array with minimum length 1.", 'messages', 'empty_array');
  const tools = list(body.tools);
  for (const [i, tool] of tools.entries()) {
    const fn = isObject(tool) && isObject(tool.function) ? tool.function : {};
    const name = String(fn.name ?? '');
    if (!OPENAI_NAME.test(name))
      return openAiError(
        `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        `tools[${i}].function.name`,
        'invalid_value',
      );
    const schema = functionSchemaError(name, fn.parameters, `tools[${i}].function.parameters`);
    if (schema) return schema;
  }
  const dup = duplicateName(tools.map((t) => String(isObject(t) && isObject(t.function) ? t.function.name : '')));
  if (dup) return openAiError(`Invalid 'tools': duplicate function name '${dup}'.`, 'tools', 'invalid_value');
  return chatMessagesRejection(list(body.messages));
}

function chatMessagesRejection(messages: unknown[]): Rejection | undefined {
  let open: string[] = [];
  for (const [i, raw] of messages.entries()) {
    const m = isObject(raw) ? raw : {};
    if (m.role === 'tool') {
      if (!open.includes(String(m.tool_call_id)))
        return openAiError(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${i}].role`,
        );
      open = open.filter((id) => id !== m.tool_call_id);
      if (Array.isArray(m.content) && m.content.some((p) => isObject(p) && p.type !== 'text'))
        return openAiError(`Invalid 'messages[${i}]'. Tool messages may only contain text content.`, `messages[${i}].content`);
      continue;
    }
    if (open.length > 0)
      return openAiError(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(', ')}`,
        `messages.[${i}].role`,
      );
    if (m.role === 'assistant') open = list(m.tool_calls).map((c) => String(isObject(c) ? c.id : ''));
    for (const [j, part] of list(m.content).entries()) {
      if (!isObject(part) || part.type !== 'image_url') continue;
      const url = isObject(part.image_url) ? String(part.image_url.url ?? '') : '';
      if (!/^(https?:\/\/|data:image\/(png|jpeg|gif|webp);base64,.)/.test(url))
        return openAiError(
          `Invalid 'messages[${i}].content[${j}].image_url.url'. Expected a valid URL, but got a value with an invalid format.`,
          `messages[${i}].content[${j}].image_url.url`,
          'invalid_value',
        );
    }
  }
  if (open.length > 0)
    return openAiError(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(', ')}`,
      'messages',
    );
  return undefined;
}

// ---- Anthropic Messages

const COMPUTER_BETAS: Record<string, string> = {
  computer_20241022: 'computer-use-2024-10-22',
  computer_20250124: 'computer-use-2025-01-24',
  computer_20251124: 'computer-use-2025-11-24',
};

function messagesRejection(body: Body, headers: http.IncomingHttpHeaders): Rejection | undefined {
  if (!headers['x-api-key'] && !headers.authorization) return anthropicError('x-api-key header is required', 401);
  if (!headers['anthropic-version']) return anthropicError('anthropic-version: header is required');
  if (typeof body.model !== 'string') return anthropicError('model: Field required');
  if (typeof body.max_tokens !== 'number') return anthropicError('max_tokens: Field required');
  const betas = String(headers['anthropic-beta'] ?? '')
    .split(',')
    .map((s) => s.trim());
  const tools = list(body.tools);
  for (const [i, raw] of tools.entries()) {
    const tool = isObject(raw) ? raw : {};
    const type = tool.type === undefined || tool.type === 'custom' ? 'custom' : String(tool.type);
    if (type === 'custom') {
      const error = customToolError(i, tool);
      if (error) return error;
    } else if (COMPUTER_BETAS[type]) {
      if (!betas.includes(COMPUTER_BETAS[type]!))
        return anthropicError(`tools.${i}: Input tag '${type}' found using 'type' does not match any of the expected tags`);
      for (const field of ['display_width_px', 'display_height_px'])
        if (typeof tool[field] !== 'number' || (tool[field] as number) < 1)
          return anthropicError(`tools.${i}.${type}.${field}: Field required`);
    } else return anthropicError(`tools.${i}: Input tag '${type}' found using 'type' does not match any of the expected tags`);
  }
  const dup = duplicateName(tools.map((t) => String(isObject(t) ? t.name : '')));
  if (dup) return anthropicError('tools: Tool names must be unique.');
  return anthropicTurnsRejection(list(body.messages));
}

function customToolError(i: number, tool: Body): Rejection | undefined {
  if (!ANTHROPIC_NAME.test(String(tool.name ?? '')))
    return anthropicError(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`);
  const schema = tool.input_schema;
  if (!isObject(schema)) return anthropicError(`tools.${i}.custom.input_schema: Field required`);
  if (TOP_COMBINATORS.some((k) => k in schema))
    return anthropicError(`tools.${i}.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level`);
  if (schema.type !== 'object') return anthropicError(`tools.${i}.custom.input_schema.type: Input should be 'object'`);
  return undefined;
}

function anthropicTurnsRejection(messages: unknown[]): Rejection | undefined {
  if (messages.length === 0) return anthropicError('messages: at least one message is required');
  let pending: string[] = [];
  for (const [i, raw] of messages.entries()) {
    const m = isObject(raw) ? raw : {};
    const blocks = Array.isArray(m.content) ? m.content.filter(isObject) : [];
    if (pending.length > 0) {
      const answered = blocks.filter((b) => b.type === 'tool_result').map((b) => String(b.tool_use_id));
      const missing = pending.filter((id) => !answered.includes(id));
      if (m.role !== 'user' || missing.length > 0)
        return anthropicError(
          `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
    }
    pending = m.role === 'assistant' ? blocks.filter((b) => b.type === 'tool_use').map((b) => String(b.id)) : [];
    const image = imageError(blocks, `messages.${i}.content`);
    if (image) return image;
  }
  return undefined;
}

function imageError(blocks: Body[], where: string): Rejection | undefined {
  for (const [j, block] of blocks.entries()) {
    if (block.type === 'tool_result') {
      const inner = imageError(list(block.content).filter(isObject), `${where}.${j}.tool_result.content`);
      if (inner) return inner;
    }
    if (block.type !== 'image') continue;
    const source = isObject(block.source) ? block.source : {};
    if (source.type !== 'base64') continue;
    if (!IMAGE_TYPES.includes(String(source.media_type)))
      return anthropicError(
        `${where}.${j}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`,
      );
    if (typeof source.data !== 'string' || source.data.length === 0)
      return anthropicError(`${where}.${j}.image.source.base64.data: image cannot be empty`);
  }
  return undefined;
}

// ---- Responses

function responsesRejection(body: Body, headers: http.IncomingHttpHeaders): Rejection | undefined {
  const auth = bearerMissing(headers);
  if (auth) return auth;
  if (typeof body.model !== 'string') return openAiError("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  const tools = list(body.tools);
  for (const [i, raw] of tools.entries()) {
    const tool = isObject(raw) ? raw : {};
    if (tool.type === 'function') {
      const name = String(tool.name ?? '');
      if (!OPENAI_NAME.test(name))
        return openAiError(`Invalid 'tools[${i}].name': string does not match pattern.`, `tools[${i}].name`, 'invalid_value');
      const schema = functionSchemaError(name, tool.parameters, `tools[${i}].parameters`);
      if (schema) return schema;
    } else if (tool.type === 'computer_use_preview' || tool.type === 'computer') {
      for (const field of ['display_width', 'display_height', 'environment'])
        if (tool[field] === undefined)
          return openAiError(`Missing required parameter: 'tools[${i}].${field}'.`, `tools[${i}].${field}`, 'missing_required_parameter');
    } else
      return openAiError(
        `Invalid value: '${String(tool.type)}'. Supported values are: 'function', 'computer_use_preview', ….`,
        `tools[${i}].type`,
        'invalid_value',
      );
  }
  const dup = duplicateName(tools.flatMap((t) => (isObject(t) && t.type === 'function' ? [String(t.name)] : [])));
  if (dup) return openAiError(`Invalid 'tools': duplicate function name '${dup}'.`, 'tools', 'invalid_value');
  if (typeof body.input === 'string') return undefined;
  return responsesInputRejection(list(body.input), body.previous_response_id !== undefined);
}

function responsesInputRejection(input: unknown[], continued: boolean): Rejection | undefined {
  const calls = new Set<string>();
  for (const [i, raw] of input.entries()) {
    const item = isObject(raw) ? raw : {};
    if (item.type === 'function_call' || item.type === 'computer_call') calls.add(String(item.call_id));
    if ((item.type === 'function_call_output' || item.type === 'computer_call_output') && !continued && !calls.has(String(item.call_id)))
      return openAiError(`No tool call found for function call output with call_id ${String(item.call_id)}.`, `input`);
    if (item.type === 'computer_call_output') {
      const output = isObject(item.output) ? item.output : {};
      if (output.type !== 'computer_screenshot' || !validImageUrl(output.image_url))
        return openAiError(
          `Invalid 'input[${i}].output.image_url'. Expected a valid URL, but got a value with an invalid format.`,
          `input[${i}].output.image_url`,
          'invalid_value',
        );
    }
    for (const [j, part] of list(item.content).entries())
      if (isObject(part) && part.type === 'input_image' && !validImageUrl(part.image_url) && part.file_id === undefined)
        return openAiError(
          `Invalid 'input[${i}].content[${j}].image_url'. Expected a valid URL, but got a value with an invalid format.`,
          `input[${i}].content[${j}].image_url`,
          'invalid_value',
        );
  }
  return undefined;
}

function validImageUrl(url: unknown): boolean {
  return typeof url === 'string' && /^(https?:\/\/|data:image\/(png|jpeg|gif|webp);base64,.)/.test(url);
}
