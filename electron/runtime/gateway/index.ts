export * from './dispatcher.js';
export * from './eventBus.js';
export * from './handlers.js';
export * from './idempotency.js';
export * from './subscriptions.js';
