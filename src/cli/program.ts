import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { EXIT_CODES_HELP } from './exitCodes.js';
import { addMemoryCommand } from './memoryCommand.js';
import { DB_HELP, DB_OPTION } from './storeOption.js';
import type { DreamRunsOptions } from './dreamsCommand.js';
import type { AddTaskOptions, ListTasksOptions, RunsOptions, TasksOptions } from './tasksCommand.js';
import type { ServeOptions } from './serveCommand.js';
import type { KeysCreateOptions, KeysListOptions, UsersAddOptions, UsersOptions } from './usersCommand.js';
import { PACKAGE_ROOT } from './resolveSyndicateFile.js';
import type { BindingOptions, DbOptions, McpCommandOptions, McpDemoOptions, PruneSessionsOptions, ServeA2aOptions, SessionsOptions, TurnCommandOptions, UsageOptions } from './options.js';

// Only commander is loaded up front: each action imports its command module on first use, so
// `--help` loads nothing else and `validate` never loads the runtime, models or SQLite binding.

const TARGET_HELP = `
<file|name>: an existing path is used as is; otherwise <name> is looked up as
./syndicates/<name>.yaml, ./syndicates/<name>.yml, then the bundled examples/<name>.yaml.`;

const TURN_EXAMPLES = `
Examples:
  $ syndicate run boardroom "Proposal: a three-day team offsite in Lisbon for 12 people on a 4,800 budget." --offline
  $ syndicate run ./my-team.yaml "Summarise this week's tickets" --bind team=support --json
  $ syndicate chat council --session 3f1c... --offline`;

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

function withBindingOptions(command: Command): Command {
  return command
    .option('--bind <key=value>', 'set a {{variable}} (repeatable; numbers and true/false are typed)', collect)
    .option('--bindings <file>', 'variables from a flat JSON object (--bind wins)');
}

function withTurnOptions(command: Command): Command {
  return withBindingOptions(
    command
      .option('--session <id>', 'resume this stored session (an unknown id is an error listing recent ones)')
      .option('--new-session <id>', 'start a new session with this id (default: a new random id)')
      .option('--timeout <duration>', 'retry a model call that makes no progress for this long, e.g. 30s (default: the file\'s timeout, else 60s)')
      .option('--deadline <duration>', 'stop a turn that takes longer than this, e.g. 5m (default: the file\'s deadline, else 10m)')
      .option(DB_OPTION, DB_HELP)
      .option('--offline', 'run every agent on the built-in scripted model: no keys, no network (also SYNDICATE_OFFLINE=1)')
      .option('--model <id>', 'run every agent on this model id, e.g. gpt-4.1-mini or ollama/qwen3:8b')
      .option('--script <file>', 'scripted-model steps by agent name ("*" for any), YAML or JSON'),
  )
    .option('--json', 'print every event as NDJSON (one JSON object per line) instead of the trace')
    .addHelpText('after', `${TARGET_HELP}\n${TURN_EXAMPLES}\n${EXIT_CODES_HELP}`);
}

export function buildProgram(): Command {
  const program = new Command('syndicate')
    .description('Run YAML agent graphs ("syndicates") as live agents.')
    .version(packageVersion())
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP);

  withTurnOptions(
    program
      .command('run')
      .summary('run one turn and print the live trace')
      .description('Run one turn and print the live trace: who speaks, delegations, tool calls, routes, then the answer.')
      .argument('<file|name>', 'syndicate file or name')
      .argument('<message...>', 'the user message (quote it, or pass several words)'),
  ).action(async (target: string, words: string[], options: TurnCommandOptions) => {
    const { runCommand } = await import('./runCommand.js');
    process.exitCode = await runCommand(target, words.join(' '), options);
  });

  withTurnOptions(
    program
      .command('chat')
      .summary('talk to a syndicate, one turn per line')
      .description('Talk to a syndicate: each line is a turn of one session. exit, quit or Ctrl-D leaves; Ctrl-C cancels a running turn.')
      .argument('<file|name>', 'syndicate file or name'),
  ).action(async (target: string, options: TurnCommandOptions) => {
    const { chatCommand } = await import('./chatCommand.js');
    process.exitCode = await chatCommand(target, options);
  });

  withBindingOptions(
    program
      .command('validate')
      .summary('check syndicate files without calling any model')
      .description('Check syndicate files without calling any model; prints "ok  <file>" or every issue as file:line:col.')
      .argument('<files...>', 'syndicate files or names'),
  )
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (files: string[], options: BindingOptions) => {
      const { validateCommand } = await import('./validateCommand.js');
      process.exitCode = validateCommand(files, options);
    });

  const skills = program
    .command('skills')
    .summary('list and check agent skills')
    .description('List the installed skills (.agents/skills/ of the project, then ~/.agents/skills/) and check skill folders.')
    .addHelpText('after', EXIT_CODES_HELP);
  skills
    .command('list')
    .summary('list installed skills')
    .description("List the skills in the project's .agents/skills/ and the user's ~/.agents/skills/, each checked.")
    .action(async () => {
      const { listSkills } = await import('./skillsCommand.js');
      process.exitCode = listSkills();
    });
  skills
    .command('add')
    .summary('install a skill into the project and pin its content hash')
    .description("Copy a skill folder, or the one skill folder in a .tgz, into the project's .agents/skills/ and record its content hash in .agents/skills.lock.json; a pinned skill whose files change is refused until it is added again. An archive holding a link, an absolute path or a path with '..' is refused.")
    .argument('<folder>', 'the skill folder, or a .tgz holding one')
    .action(async (folder: string) => {
      const { addSkillCommand } = await import('./skillsCommand.js');
      process.exitCode = addSkillCommand(folder);
    });
  skills
    .command('validate')
    .summary('check a skill folder')
    .description('Check a skill folder (SKILL.md frontmatter, name, files); prints "ok  <name>  <hash>" or every issue as file:line:col.')
    .argument('<folder>', 'the skill folder')
    .action(async (folder: string) => {
      const { validateSkill } = await import('./skillsCommand.js');
      process.exitCode = validateSkill(folder);
    });

  const sessions = program
    .command('sessions')
    .summary('list, show and delete stored sessions')
    .description('List, show and delete stored sessions.')
    .addHelpText('after', EXIT_CODES_HELP);
  sessions
    .command('list')
    .summary('list sessions')
    .description('List sessions, most recently updated first.')
    .option(DB_OPTION, DB_HELP)
    .option('--json', 'print the sessions as a JSON array')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (options: SessionsOptions) => {
      const { listSessions } = await import('./sessionsCommand.js');
      process.exitCode = await listSessions(options);
    });
  sessions
    .command('show')
    .summary('print a session as a readable transcript')
    .description('Print a session as a readable transcript: user input, labelled agent messages, delegations, tool calls.')
    .argument('<id>', 'session id')
    .option(DB_OPTION, DB_HELP)
    .option('--json', 'print the stored events as NDJSON')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (id: string, options: SessionsOptions) => {
      const { showSession } = await import('./sessionsCommand.js');
      process.exitCode = await showSession(id, options);
    });
  sessions
    .command('delete')
    .summary('delete a session')
    .description('Delete a session and all its events.')
    .argument('<id>', 'session id')
    .option(DB_OPTION, DB_HELP)
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (id: string, options: SessionsOptions) => {
      const { deleteSession } = await import('./sessionsCommand.js');
      process.exitCode = await deleteSession(id, options);
    });

  const tasks = program
    .command('tasks')
    .summary('add, list and remove scheduled tasks, and list their runs')
    .description('Scheduled tasks: a message a syndicate runs on a cron or at one instant, while `syndicate serve` runs on the store.')
    .addHelpText('after', EXIT_CODES_HELP);
  tasks
    .command('add')
    .summary('add a scheduled task')
    .description('Add a task to a syndicate (a file or a name): --cron (seconds allowed) or --at, and the message each run sends.')
    .argument('<syndicate>', 'syndicate file or name')
    .requiredOption('--name <name>', 'unique among the syndicate\'s active tasks')
    .requiredOption('--message <text>', 'what each run sends')
    .option('--cron <pattern>', 'cron pattern, e.g. "0 8 * * 1-5" or "*/30 * * * * *"')
    .option('--at <instant>', 'one-time instant with its offset, e.g. 2026-12-24T09:00:00Z')
    .option('--timezone <zone>', 'IANA time zone the cron is read in (default UTC)')
    .option('--session <id>', '"new" (a session per run, the default) or a fixed session id')
    .option('--catch-up <policy>', 'none (default) or last: what a server does with firings missed while none ran')
    .option('--user <id>', "the server user the runs are for (their memory, their sessions); default: the admin")
    .option(DB_OPTION, DB_HELP)
    .option('--json', 'print the task as JSON')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (syndicate: string, options: AddTaskOptions) => {
      const { addTask } = await import('./tasksCommand.js');
      process.exitCode = await addTask(syndicate, options);
    });
  tasks
    .command('list')
    .summary('list scheduled tasks')
    .description('List the active scheduled tasks of every syndicate, oldest first.')
    .option('--all', 'include removed and fired one-time tasks')
    .option(DB_OPTION, DB_HELP)
    .option('--json', 'print the tasks as a JSON array')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (options: ListTasksOptions) => {
      const { listTasks } = await import('./tasksCommand.js');
      process.exitCode = await listTasks(options);
    });
  tasks
    .command('remove')
    .summary('remove a scheduled task')
    .description('Deactivate a task: it fires no more, and its runs stay listed.')
    .argument('<id>', 'task id (syndicate tasks list)')
    .option(DB_OPTION, DB_HELP)
    .option('--json', 'print what was removed as JSON')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (id: string, options: TasksOptions) => {
      const { removeTask } = await import('./tasksCommand.js');
      process.exitCode = await removeTask(id, options);
    });
  tasks
    .command('runs')
    .summary('list the runs of scheduled tasks')
    .description('List run records, newest firing first: answered, failed, no_response, interrupted or skipped, with the answer or why.')
    .argument('[task-id]', 'only this task\'s runs')
    .option('--limit <n>', 'at most this many', '20')
    .option(DB_OPTION, DB_HELP)
    .option('--json', 'print the runs as a JSON array')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (taskId: string | undefined, options: RunsOptions) => {
      const { listRuns } = await import('./tasksCommand.js');
      process.exitCode = await listRuns(taskId, options);
    });

  program
    .command('dreams')
    .summary("list a syndicate's dream runs")
    .description('Dreams: the unattended reflections `syndicate serve` runs per user silo (a file\'s `dreams:` block).')
    .addHelpText('after', EXIT_CODES_HELP)
    .command('runs')
    .summary("list a user's dream runs")
    .description('List dream run records, newest first: answered, failed or interrupted, with the sessions reflected on, the facts stored and the journal written, or why it failed.')
    .argument('<syndicate>', 'syndicate file or name')
    .option('--user <id>', "whose dreams (dreams run per user); default: the admin")
    .option('--limit <n>', 'at most this many', '20')
    .option(DB_OPTION, DB_HELP)
    .option('--json', 'print the runs as a JSON array')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (syndicate: string, options: DreamRunsOptions) => {
      const { listDreamRuns } = await import('./dreamsCommand.js');
      process.exitCode = await listDreamRuns(syndicate, options);
    });

  const users = program
    .command('users')
    .summary("add, list and remove the server's users")
    .description("Add, list and remove the users of `syndicate serve` (roles: admin everything, member their own sessions and memory, viewer read only), straight in the store.")
    .addHelpText('after', EXIT_CODES_HELP);
  users
    .command('add')
    .summary('add a user')
    .argument('<id>', "the user's id: 1-64 letters, digits, '.', '_' or '-'")
    .option('--role <role>', 'admin (everything), member (their own sessions and memory) or viewer (read only)', 'member')
    .option(DB_OPTION, DB_HELP)
    .option('--json', 'print the user as JSON')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (id: string, options: UsersAddOptions) => {
      const { usersAdd } = await import('./usersCommand.js');
      process.exitCode = await usersAdd(id, options);
    });
  users
    .command('list')
    .summary('list the users')
    .option(DB_OPTION, DB_HELP)
    .option('--json', 'print the users as a JSON array')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (options: UsersOptions) => {
      const { usersList } = await import('./usersCommand.js');
      process.exitCode = await usersList(options);
    });
  users
    .command('remove')
    .summary('remove a user with their keys and sign-ins')
    .argument('<id>', "the user's id")
    .option(DB_OPTION, DB_HELP)
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (id: string, options: UsersOptions) => {
      const { usersRemove } = await import('./usersCommand.js');
      process.exitCode = await usersRemove(id, options);
    });

  const keys = program
    .command('keys')
    .summary("create, list and revoke the server's API keys")
    .description('Create, list and revoke API keys for `syndicate serve` (Authorization: Bearer <key> on the API, A2A and MCP), straight in the store. A key is shown once, at creation.')
    .addHelpText('after', EXIT_CODES_HELP);
  keys
    .command('create')
    .summary('create an API key for a user (printed once)')
    .requiredOption('--user <id>', 'whose key')
    .option('--name <name>', 'what the key is for', 'cli')
    .option(DB_OPTION, DB_HELP)
    .option('--json', 'print the key and its record as JSON')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (options: KeysCreateOptions) => {
      const { keysCreate } = await import('./usersCommand.js');
      process.exitCode = await keysCreate(options);
    });
  keys
    .command('list')
    .summary('list API keys (never their secrets)')
    .option('--user <id>', "only this user's keys")
    .option(DB_OPTION, DB_HELP)
    .option('--json', 'print the keys as a JSON array')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (options: KeysListOptions) => {
      const { keysList } = await import('./usersCommand.js');
      process.exitCode = await keysList(options);
    });
  keys
    .command('revoke')
    .summary('revoke an API key: it is refused from then on')
    .argument('<id>', 'the key id (syndicate keys list)')
    .option(DB_OPTION, DB_HELP)
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (id: string, options: UsersOptions) => {
      const { keysRevoke } = await import('./usersCommand.js');
      process.exitCode = await keysRevoke(id, options);
    });

  const db = program
    .command('db')
    .summary('migrate a PostgreSQL store\'s schema, or show its version')
    .description('Manage the schema of a PostgreSQL store (a SQLite file brings its own up to date when opened).')
    .addHelpText('after', EXIT_CODES_HELP);
  const postgresOption = '--db <url>';
  const postgresHelp = 'the store: postgres://user:password@host:port/database (default: $SYNDICATE_DB)';
  db.command('migrate')
    .summary('apply the pending schema migrations')
    .description('Apply the pending schema migrations (and create the pgvector extension). Safe to run while other processes use the database: migrations run under an advisory lock, once.')
    .option(postgresOption, postgresHelp)
    .option('--json', 'print {from, to} as JSON')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (options: DbOptions) => {
      const { dbMigrateCommand } = await import('./dbCommand.js');
      process.exitCode = await dbMigrateCommand(options);
    });
  db.command('status')
    .summary('show the server, pgvector and schema versions')
    .description('Show the PostgreSQL server version, the pgvector version and the schema version against the one this syndicate brings.')
    .option(postgresOption, postgresHelp)
    .option('--json', 'print the status as one JSON object')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (options: DbOptions) => {
      const { dbStatusCommand } = await import('./dbCommand.js');
      process.exitCode = await dbStatusCommand(options);
    });

  sessions
    .command('prune')
    .summary('delete sessions not updated for a while')
    .description('Delete every session not updated within the given time, with its events (the usage ledger keeps its rows).')
    .requiredOption('--older-than <age>', 'how long a session must have been left alone: 90d, 12w, 24h, or a day (2026-11-01) or an ISO time to cut at')
    .option(DB_OPTION, DB_HELP)
    .option('--json', 'print {pruned, before} as JSON')
    .addHelpText('after', `
Examples:
  $ syndicate sessions prune --older-than 90d
${EXIT_CODES_HELP}`)
    .action(async (options: PruneSessionsOptions) => {
      const { pruneSessions } = await import('./sessionsCommand.js');
      process.exitCode = await pruneSessions(options);
    });

  program
    .command('usage')
    .summary('print model calls, tokens and cost from the usage ledger')
    .description(
      'Print the usage ledger: model calls, input/output/thinking/cached tokens, cost, and failed or cancelled turns, grouped. Every run and chat records one row per model call.',
    )
    .option('--since <when>', 'only calls since then: 7d, 12h, 30m, 2w, a day (2026-11-01) or an ISO time')
    .addOption(new Option('--by <group>', 'group rows by').choices(['agent', 'model', 'syndicate', 'day', 'turn']).default('agent'))
    .option('--syndicate <name>', 'only calls of this syndicate (its syndicate_name)')
    .option('--prices <file>', 'JSON prices merged over the shipped table (also SYNDICATE_PRICES)')
    .option(DB_OPTION, DB_HELP)
    .option('--json', 'print the summary as one JSON object')
    .addHelpText('after', `
Examples:
  $ syndicate usage --since 7d
  $ syndicate usage --by turn --since 2026-11-01 --json
${EXIT_CODES_HELP}`)
    .action(async (options: UsageOptions) => {
      const { usageCommand } = await import('./usageCommand.js');
      process.exitCode = await usageCommand(options);
    });

  withBindingOptions(
    program
      .command('mcp')
      .summary('serve syndicates as MCP tools (ask_<syndicate>) over stdio or HTTP')
      .description(
        'Serve syndicates to MCP clients: each becomes a tool ask_<syndicate> (message, optional session_id) that runs a real turn and reports progress. stdio by default; --http serves Streamable HTTP.',
      )
      .argument('<files|names...>', 'syndicate files or names')
      .option('--http <[host:]port>', 'serve Streamable HTTP at http://host:port/mcp (host defaults to 127.0.0.1); a non-loopback host requires SYNDICATE_MCP_TOKEN')
      .option('--allow-origin <hostname>', 'let browser pages from this origin hostname call the HTTP server (repeatable)', collect)
      .option(DB_OPTION, DB_HELP)
      .option('--offline', 'run every agent on the built-in scripted model: no keys, no network (also SYNDICATE_OFFLINE=1)')
      .option('--model <id>', 'run every agent on this model id')
      .option('--script <file>', 'scripted-model steps by agent name ("*" for any), YAML or JSON'),
  )
    .addHelpText('after', `${TARGET_HELP}

Environment:
  SYNDICATE_MCP_TOKEN  bearer token HTTP clients must send (Authorization: Bearer <token>);
                       required when --http names a host other than loopback

Examples:
  $ syndicate mcp council --offline
  $ syndicate mcp council triage --http 8000
  $ SYNDICATE_MCP_TOKEN=$(openssl rand -hex 32) syndicate mcp ./team.yaml --http 0.0.0.0:8000
${EXIT_CODES_HELP}`)
    .action(async (targets: string[], options: McpCommandOptions) => {
      const { mcpCommand } = await import('./mcpCommand.js');
      process.exitCode = await mcpCommand(targets, options, packageVersion());
    });

  program
    .command('mcp-demo')
    .summary('start a small library-catalog MCP server (for examples/librarian.yaml)')
    .description(
      'Start a demo MCP server over Streamable HTTP on 127.0.0.1: a library catalog with read tools (search_catalog, read_scroll) and write tools (borrow_scroll, annotate_scroll). Its state persists across restarts.',
    )
    .option('--port <port>', 'port on 127.0.0.1 (0 picks a free one)', '8765')
    .option('--data <dir>', 'directory holding the catalog state (default: mcp-demo/ in the data directory)')
    .addHelpText('after', `
Examples:
  $ syndicate mcp-demo
  $ ALLOW_PRIVATE_MCP=true syndicate run librarian "Find a scroll about tides and borrow it for Ada" --offline
${EXIT_CODES_HELP}`)
    .action(async (options: McpDemoOptions) => {
      const { mcpDemoCommand } = await import('./mcpDemoCommand.js');
      process.exitCode = await mcpDemoCommand(options, packageVersion());
    });

  withBindingOptions(
    program
      .command('serve-a2a')
      .summary('serve syndicates as A2A agents (protocol 1.0, and 0.3 clients)')
      .description(
        'Serve syndicates as A2A agents: one agent card and endpoint set per syndicate under /<agent-id>/ (a single syndicate also at the root). Set A2A_SERVER_SECRET to require a bearer token; it is required with PUBLIC_URL or a non-loopback --host. Behind a reverse proxy, set A2A_TRUST_PROXY to the number of proxies or their addresses (e.g. 1, or loopback,10.0.0.0/8) so rate limiting counts each client from X-Forwarded-For.',
      )
      .argument('[files|names...]', 'syndicate files or names (none when only --memory is served)')
      .option('--memory <syndicate>', "also serve this long-term syndicate's memory as an agent at /<agent-id>-memory/ (skills remember, recall, read, list, history, export)")
      .option('--host <host>', 'address to listen on', '127.0.0.1')
      .option('--port <port>', 'port to listen on (0 picks a free one)', '41241')
      .option(DB_OPTION, DB_HELP)
      .option('--offline', 'run every agent on the built-in scripted model: no keys, no network (also SYNDICATE_OFFLINE=1)')
      .option('--model <id>', 'run every agent on this model id')
      .option('--script <file>', 'scripted-model steps by agent name ("*" for any), YAML or JSON'),
  )
    .addHelpText('after', `${TARGET_HELP}

Examples:
  $ syndicate serve-a2a triage council --offline --port 41241
  $ A2A_SERVER_SECRET=... PUBLIC_URL=https://agents.example.com syndicate serve-a2a ./team.yaml --host 0.0.0.0
  $ syndicate serve-a2a --memory concierge --offline
${EXIT_CODES_HELP}`)
    .action(async (targets: string[], options: ServeA2aOptions) => {
      const { serveA2aCommand } = await import('./serveA2aCommand.js');
      process.exitCode = await serveA2aCommand(targets, options, packageVersion());
    });

  program
    .command('serve')
    .summary('serve syndicates over one HTTP API, with A2A, MCP and the web studio on the same port')
    .description(
      'Serve every syndicate given (default: ./syndicates/ when it exists, and the bundled examples) on one port: the HTTP API at /api/v1, A2A at /a2a/<id>/, MCP at /mcp and the studio at /. A syndicate file changed on disk is used from the next turn; an invalid edit keeps the previous version and shows the error. On first start it makes the admin user and prints a one-time sign-in link; SYNDICATE_ADMIN_TOKEN instead sets the admin\'s API key. A non-loopback --host needs an admin: SYNDICATE_ADMIN_TOKEN, or one stored with `syndicate users add` and `syndicate keys create`.',
    )
    .argument('[paths...]', 'syndicate files or folders of them')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '7700')
    .option(DB_OPTION, DB_HELP)
    .option('--offline', 'run every agent on the built-in scripted model: no keys, no network (also SYNDICATE_OFFLINE=1)')
    .option('--grace <duration>', 'on SIGTERM/SIGINT, how long running turns may take to finish before they are cancelled', '10s')
    .addHelpText('after', `
Examples:
  $ syndicate serve --offline
  $ syndicate serve ./syndicates --port 8080 --db postgres://localhost/syndicate
  $ SYNDICATE_ADMIN_TOKEN=$(openssl rand -hex 32) syndicate serve --host 0.0.0.0
${EXIT_CODES_HELP}`)
    .action(async (paths: string[], options: ServeOptions) => {
      const { serveCommand } = await import('./serveCommand.js');
      process.exitCode = await serveCommand(paths, options, packageVersion());
    });

  program
    .command('models')
    .summary('list the model providers and whether each is configured here')
    .description('List every model provider family, how agents name its models, and whether its key or server is configured. --ping makes one short call to each configured one and prints its tokens and latency.')
    .option('--ping', 'call each configured provider once (a few tokens each)')
    .addHelpText('after', `
Examples:
  $ syndicate models
  $ syndicate models --ping
${EXIT_CODES_HELP}`)
    .action(async (options: { ping?: boolean }) => {
      const { modelsCommand } = await import('./modelsCommand.js');
      process.exitCode = await modelsCommand(options);
    });

  addMemoryCommand(program);

  return program;
}
