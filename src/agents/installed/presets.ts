// The built-in installed agents (docs/agents.md#installed-agents): the headless
// command, the environment pointing each at the gateway, and the switches that stop it calling
// home (telemetry, update checks, model lists, plugin downloads): the sandbox has no route out, and a
// CLI waiting on a lookup that cannot succeed is slow, not wrong.
import type { InstalledAgentSpec } from './types.ts';

const qwenCode: InstalledAgentSpec = {
  name: 'qwen-code',
  package: { name: '@qwen-code/qwen-code', version: '0.15.10' },
  api: 'chat',
  needsGlibc: true,
  unprivileged: true,
  // Not verified offline yet: single-turn until it is.
  multiTurn: false,
  command: (prompt) => ['qwen', '--approval-mode', 'yolo', prompt],
  env: (gw) => ({ OPENAI_BASE_URL: `${gw.baseUrl}/v1`, OPENAI_API_KEY: gw.token, OPENAI_MODEL: gw.model }),
  files: () => ({
    '.qwen/settings.json': JSON.stringify({
      security: { auth: { selectedType: 'openai' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false },
    }),
  }),
  collect: ['.qwen'],
  volatile: [/Process Group PGID: \d+/g], // its shell tool's result names the process group
};

const codex: InstalledAgentSpec = {
  name: 'codex',
  package: { name: '@openai/codex', version: '0.171.0' },
  api: 'responses', // Codex ignores OPENAI_BASE_URL and speaks only Responses: a provider of our own
  needsGlibc: true,
  unprivileged: true,
  multiTurn: true,
  command: (prompt, turn, gw) => [
    'codex',
    'exec',
    ...(turn > 1 ? ['resume', '--last'] : []),
    '--skip-git-repo-check',
    '--dangerously-bypass-approvals-and-sandbox',
    '-m',
    gw.model,
    '-c',
    'model_provider=benchrig',
    '-c',
    `model_providers.benchrig={name="benchrig",base_url="${gw.baseUrl}/v1",env_key="BENCHRIG_API_KEY",wire_api="responses"}`,
    '-c',
    'check_for_update_on_startup=false',
    '-c',
    'analytics.enabled=false',
    '-c',
    'feedback.enabled=false',
    '--disable',
    'plugins',
    '--disable',
    'remote_plugin',
    '--disable',
    'apps',
    '--disable',
    'plugin_sharing',
    prompt,
  ],
  env: (gw) => ({ BENCHRIG_API_KEY: gw.token, CODEX_HOME: `${gw.home}/.codex` }),
  files: () => ({ '.codex/.keep': '' }),
  collect: ['.codex/sessions'],
  // session, turn, item and installation ids (uuids), its exec tool's chunk id and wall time, and the
  // turn's start time in `client_metadata["x-codex-turn-metadata"]` (JSON in a string: `\"…_unix_ms\":N`)
  volatile: [
    /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
    /Chunk ID: [0-9a-f]+/g,
    /Wall time: [0-9.]+ seconds/g,
    /_unix_ms\\*":\d+/g,
  ],
};

const claudeCode: InstalledAgentSpec = {
  name: 'claude-code',
  package: { name: '@anthropic-ai/claude-code', version: '2.1.197' },
  api: 'messages',
  needsGlibc: true,
  unprivileged: true,
  multiTurn: true,
  command: (prompt, turn) => [
    'claude',
    '-p',
    '--permission-mode',
    'bypassPermissions',
    ...(turn > 1 ? ['--continue'] : []),
    prompt,
  ],
  env: (gw) => ({
    ANTHROPIC_BASE_URL: gw.baseUrl,
    ANTHROPIC_API_KEY: gw.token,
    ANTHROPIC_MODEL: gw.model,
    ANTHROPIC_SMALL_FAST_MODEL: gw.model,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    // bypassPermissions refuses root unless told it is in a sandbox (it is)
    ...(gw.root ? { IS_SANDBOX: '1' } : {}),
  }),
  collect: ['.claude/projects'],
};

const opencode: InstalledAgentSpec = {
  name: 'opencode',
  package: { name: 'opencode-ai', version: '1.18.33' },
  api: 'chat',
  needsGlibc: true,
  unprivileged: true,
  multiTurn: true,
  command: (prompt, turn) => ['opencode', 'run', ...(turn > 1 ? ['--continue'] : []), prompt],
  env: (gw) => ({
    BENCHRIG_API_KEY: gw.token,
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
    // its background plugin install goes to a dead local port instead of the npm registry
    NPM_CONFIG_REGISTRY: 'http://127.0.0.1:9/',
  }),
  files: (gw) => ({
    '.config/opencode/opencode.json': JSON.stringify({
      provider: {
        benchrig: {
          npm: '@ai-sdk/openai-compatible',
          name: 'benchrig',
          options: { baseURL: `${gw.baseUrl}/v1`, apiKey: '{env:BENCHRIG_API_KEY}' },
          models: { [gw.model]: { name: gw.model, tool_call: true } },
        },
      },
      model: `benchrig/${gw.model}`,
      small_model: `benchrig/${gw.model}`,
      autoupdate: false,
      share: 'disabled',
      permission: { edit: 'allow', bash: 'allow', webfetch: 'allow' },
    }),
  }),
  collect: ['.local/share/opencode'],
};

export const PRESETS: Record<string, InstalledAgentSpec> = {
  'claude-code': claudeCode,
  codex,
  opencode,
  'qwen-code': qwenCode,
};
