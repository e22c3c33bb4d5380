import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../../../electron/contract/index.js';
import { AgentDeskError } from '../../../../electron/runtime/errors.js';
import { telemetrySettings } from '../../../../electron/capabilities/telemetry/telemetrySettings.js';

const configWith = (telemetry?: unknown) => ConfigSchema.parse(telemetry === undefined ? {} : { telemetry }).telemetry;

describe('telemetrySettings', () => {
  it('is off with no endpoint anywhere', () => {
    expect(telemetrySettings(configWith(), {})).toBeUndefined();
    expect(telemetrySettings(configWith(), { OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeUndefined();
  });

  it('config.json names the collector; /v1/traces is appended once', () => {
    expect(telemetrySettings(configWith({ otlp: { endpoint: 'http://collector:4318/' } }), {})).toEqual({
      tracesUrl: 'http://collector:4318/v1/traces',
      endpointShown: 'http://collector:4318/v1/traces',
      headers: {},
      captureContent: false,
    });
  });

  it('the OTEL_* variables win over config.json (the exporter reads them), the traces one over the general one', () => {
    const config = configWith({ otlp: { endpoint: 'http://from-config:4318' } });
    expect(telemetrySettings(config, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318' })).toMatchObject({
      endpointShown: 'http://env:4318/v1/traces',
    });
    expect(telemetrySettings(config, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318' })?.tracesUrl).toBeUndefined();
    expect(
      telemetrySettings(config, {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9/t',
      }),
    ).toMatchObject({ endpointShown: 'http://traces:9/t' });
  });

  it('OTEL_SDK_DISABLED and OTEL_TRACES_EXPORTER=none turn it off whatever is set', () => {
    const config = configWith({ otlp: { endpoint: 'http://collector:4318' } });
    expect(telemetrySettings(config, { OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(telemetrySettings(config, { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318' })).toBeUndefined();
  });

  it('content capture is opt-in: config.json or the GenAI capture variable', () => {
    expect(telemetrySettings(configWith({ otlp: { endpoint: 'http://c:4318', captureContent: true } }), {})?.captureContent).toBe(true);
    expect(
      telemetrySettings(configWith(), {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
      })?.captureContent,
    ).toBe(true);
  });

  it('messages never show a key kept in the endpoint (user, password, query)', () => {
    const shown = telemetrySettings(configWith(), {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://user:s3cr3t-pass@collector.example/otlp?api_key=k3y-value',
    })!;
    expect(shown.endpointShown).toBe('https://collector.example/otlp/v1/traces');
  });

  it('config.json rejects unknown keys in telemetry, at every depth', () => {
    expect(ConfigSchema.safeParse({ telemetry: { otlp: { endpoint: 'http://c:4318', captureContents: true } } }).success).toBe(false);
    expect(ConfigSchema.safeParse({ telemetry: { exporter: 'otlp' } }).success).toBe(false);
    expect(ConfigSchema.safeParse({ telemetry: { otlp: { endpoint: 'not a url' } } }).success).toBe(false);
  });

  it('the config example in docs/telemetry.md is a valid config.json that turns telemetry on', () => {
    const doc = readFileSync(new URL('../../../../docs/telemetry.md', import.meta.url), 'utf8');
    const examples = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as unknown);
    expect(examples).toHaveLength(1);
    const config = ConfigSchema.parse(examples[0]);
    expect(telemetrySettings(config.telemetry, {})?.tracesUrl).toBe('http://127.0.0.1:4318/v1/traces');
  });

  it('an endpoint variable that is not an http(s) URL is a clear error naming it (the exporter would quietly use localhost)', () => {
    expect(() => telemetrySettings(configWith(), { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      'OTEL_EXPORTER_OTLP_ENDPOINT is not an http(s) URL: "collector:4318"',
    );
    expect(() => telemetrySettings(configWith(), { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'not a url' })).toThrow(AgentDeskError);
  });

  it('headers: config.json’s are sent, but a header the OTEL_* variables set is theirs', () => {
    const config = configWith({ otlp: { endpoint: 'http://c:4318', headers: { 'X-Tenant': 'from-config', 'x-team': 'a' } } });
    expect(telemetrySettings(config, {})?.headers).toEqual({ 'X-Tenant': 'from-config', 'x-team': 'a' });
    expect(telemetrySettings(config, { OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=from-env,other=1' })?.headers).toEqual({ 'x-team': 'a' });
    expect(telemetrySettings(config, { OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'X-TEAM=b' })?.headers).toEqual({ 'X-Tenant': 'from-config' });
  });
});
