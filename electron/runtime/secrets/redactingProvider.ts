import type { ModelCallOptions, ModelContentPart, ModelMessage, ModelProvider, ModelRequest, ModelResponse } from '../models/types.js';
import type { Redactor } from '../trace/redactor.js';

/**
 * The model boundary: every text a request carries — system prompt, goal, project context,
 * memory, tool results and errors, earlier turns — passes the redactor, so the model sees
 * `[secret:name]` where a known secret value was (a file, a page, an API answer). Images are
 * passed as they are: pixels cannot be searched for a value (see docs/decisions.md).
 */
export class RedactingProvider implements ModelProvider {
  constructor(
    private readonly inner: ModelProvider,
    private readonly redactor: Redactor,
  ) {}

  get kind(): string {
    return this.inner.kind;
  }

  get model(): string {
    return this.inner.model;
  }

  complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse> {
    return this.inner.complete(this.redactor.size === 0 ? request : this.redactRequest(request), options);
  }

  private redactRequest(request: ModelRequest): ModelRequest {
    const text = (t: string) => this.redactor.text(t);
    return {
      ...request,
      system: text(request.system),
      tools: this.redactor.value(request.tools),
      messages: request.messages.map((m) => this.redactMessage(m)),
    };
  }

  private redactMessage(message: ModelMessage): ModelMessage {
    const text = (t: string) => this.redactor.jsonText(t);
    if (message.role === 'user') return { ...message, content: message.content.map((p) => this.redactPart(p)) };
    if (message.role === 'assistant')
      return {
        ...message,
        text: text(message.text),
        toolCalls: message.toolCalls.map((c) => ({ ...c, argumentsText: text(c.argumentsText) })),
      };
    return { ...message, content: text(message.content), ...(message.images && { images: message.images.map((p) => this.redactPart(p)) }) };
  }

  private redactPart(part: ModelContentPart): ModelContentPart {
    return part.type === 'text' ? { ...part, text: this.redactor.text(part.text) } : part;
  }
}
