/**
 * Layer arrows of ARCHITECTURE §1, enforced by test/unit/architecture/layers.test.ts:
 * contract ← runtime ← capabilities ← main/cli; contract ← preload; contract ← renderer.
 */
const HEAVY = '^(electron|dockerode|playwright|playwright-core|@nut-tree-fork/.*|ws)$';
module.exports = {
  forbidden: [
    {
      name: 'contract-imports-only-zod',
      severity: 'error',
      comment: 'electron/contract holds shapes only: it may import zod and itself.',
      from: { path: '^electron/contract/' },
      to: { pathNot: ['^electron/contract/', '^node_modules/zod/', '^zod$'] },
    },
    {
      name: 'runtime-stays-pure',
      severity: 'error',
      comment: 'electron/runtime must not import electron, dockerode, playwright, nut-js, ws or outer layers.',
      from: { path: '^electron/runtime/' },
      to: {
        path: [`node_modules/${HEAVY.slice(1, -1)}/`, HEAVY, '^electron/(capabilities|main|cli|preload)/', '^renderer/'],
      },
    },
    {
      name: 'runtime-uses-otel-api-only',
      severity: 'error',
      comment:
        'electron/runtime may use @opentelemetry/api (a no-op without the SDK); the SDK and exporters are set up in electron/capabilities/telemetry.',
      from: { path: '^electron/runtime/' },
      to: { path: ['node_modules/@opentelemetry/(?!api/)', '^@opentelemetry/(?!api$)'] },
    },
    {
      name: 'capabilities-below-entry-points',
      severity: 'error',
      comment: 'electron/capabilities may not import electron or the entry points.',
      from: { path: '^electron/capabilities/' },
      to: { path: ['^electron$', 'node_modules/electron/', '^electron/(main|cli|preload)/', '^renderer/'] },
    },
    {
      name: 'only-main-and-preload-import-electron',
      severity: 'error',
      from: { path: '^(electron/(contract|runtime|capabilities|cli)|renderer)/' },
      to: { path: ['^electron$', 'node_modules/electron/'] },
    },
    {
      name: 'preload-sees-contract-only',
      severity: 'error',
      from: { path: '^electron/preload/' },
      to: { path: ['^electron/(runtime|capabilities|main|cli)/', '^renderer/'] },
    },
    {
      name: 'renderer-sees-contract-only',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: ['^electron/(runtime|capabilities|main|cli|preload)/'] },
    },
    {
      name: 'no-circular-in-electron',
      severity: 'error',
      comment: 'Import circles under electron/ (type-only ones too) tangle modules that should be assembled in one place.',
      from: { path: '^electron/' },
      to: { circular: true },
    },
    {
      name: 'only-roots-import-the-assembly',
      severity: 'error',
      comment: 'The assembled runtime is seen only by the composition roots; feature modules get the narrow RuntimeCore.',
      from: {
        path: '^electron/',
        pathNot: ['^electron/capabilities/composition/', '^electron/cli/openRuntime\\.ts$', '^electron/main/index\\.ts$'],
      },
      to: { path: '^electron/runtime/assembleRuntime\\.ts$' },
    },
    {
      name: 'no-runtime-service-locator',
      severity: 'error',
      comment: 'electron/runtime/agentRuntime.ts (the service locator) is gone; nothing may bring it back.',
      from: {},
      to: { path: '^electron/runtime/agentRuntime\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    exclude: { path: '(^|/)dist/' },
  },
};
