import type { ProviderConfig } from '../../contract/index.js';

/** A well-known endpoint: what `models.providers.<name>` defaults to when the name matches. */
export interface ProviderPreset extends ProviderConfig {
  /** Hosted services refuse calls without a key; local servers accept any. */
  needsKey: boolean;
  /** An example model name for docs and tests. */
  exampleModel: string;
}

/**
 * Base URLs of the endpoints Agent Desk is documented against (docs/models.md). All but
 * Anthropic speak Chat Completions; OpenAI also speaks Responses (`kind: "openai-responses"`).
 */
export const PROVIDER_PRESETS: Readonly<Record<string, ProviderPreset>> = {
  openai: { kind: 'openai-chat', baseUrl: 'https://api.openai.com/v1', needsKey: true, exampleModel: 'gpt-4.1-mini' },
  anthropic: { kind: 'anthropic', baseUrl: 'https://api.anthropic.com', needsKey: true, exampleModel: 'claude-sonnet-4-5' },
  ollama: { kind: 'openai-chat', baseUrl: 'http://127.0.0.1:11434/v1', needsKey: false, exampleModel: 'qwen2.5:7b-instruct' },
  vllm: { kind: 'openai-chat', baseUrl: 'http://127.0.0.1:8000/v1', needsKey: false, exampleModel: 'Qwen/Qwen2.5-7B-Instruct' },
  lmstudio: { kind: 'openai-chat', baseUrl: 'http://127.0.0.1:1234/v1', needsKey: false, exampleModel: 'qwen2.5-7b-instruct' },
  deepseek: { kind: 'openai-chat', baseUrl: 'https://api.deepseek.com/v1', needsKey: true, exampleModel: 'deepseek-chat' },
  qwen: { kind: 'openai-chat', baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1', needsKey: true, exampleModel: 'qwen-plus' },
  glm: { kind: 'openai-chat', baseUrl: 'https://open.bigmodel.cn/api/paas/v4', needsKey: true, exampleModel: 'glm-4.5' },
  kimi: { kind: 'openai-chat', baseUrl: 'https://api.moonshot.cn/v1', needsKey: true, exampleModel: 'kimi-k2-0905-preview' },
};
