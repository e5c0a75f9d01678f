import { useState } from 'preact/hooks';
import { encodeId, getJson, sendJson } from './api.js';
import { when } from './format.js';
import { useRefreshing } from './polling.js';
import type { SyndicateSummary } from './syndicates.js';

// Scheduled tasks (GET/POST /tasks, DELETE /tasks/:id, GET /tasks/:id/runs): the caller's (an
// admin's: everyone's), added here for the caller, with each task's run records. A refusal shows
// the server's sentence, which names the fix.

interface Task {
  id: string;
  syndicate: string;
  name: string;
  cron: string | null;
  timezone: string;
  at: number | null;
  message: string;
  session: 'new' | { fixed: string };
  runAs: string;
  origin: 'file' | 'runtime';
  active: boolean;
  lastScheduledFor: number | null;
}

interface TaskRun {
  id: string;
  scheduledFor: number;
  status: string;
  sessionId: string | null;
  answer: string | null;
  detail: string | null;
}

const whenOf = (task: Task): string => (task.cron !== null ? `${task.cron} (${task.timezone})` : when(task.at!));

export function TasksPanel({ syndicates }: { syndicates: SyndicateSummary[] }) {
  const [tasks, setTasks] = useState<Task[]>();
  const [open, setOpen] = useState<Task>();
  const [error, setError] = useState<string>();
  const load = () => getJson<{ tasks: Task[] }>('/tasks').then((answer) => setTasks(answer.tasks), (failure: Error) => setError(failure.message));
  useRefreshing(load);

  async function remove(task: Task) {
    if (!window.confirm(`Remove the task '${task.name}'? It fires no more; its runs stay readable.`)) return;
    await sendJson('DELETE', `/tasks/${encodeId(task.id)}`).then(load, (failure: Error) => setError(failure.message));
  }

  return (
    <section class="card tasks">
      <h2>Scheduled tasks</h2>
      {error && (
        <p class="failure" role="alert">
          {error}
        </p>
      )}
      <AddTaskForm syndicates={syndicates} onAdded={load} />
      {tasks && tasks.length === 0 && <p class="muted">No active tasks. Add one above, declare one under schedules: in a syndicate file, or let an agent schedule one.</p>}
      {tasks && tasks.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>name</th>
              <th>syndicate</th>
              <th>when</th>
              <th>session</th>
              <th>for</th>
              <th>last firing</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {tasks.map((task) => (
              <tr key={task.id} data-task={task.name}>
                <td>{task.name}</td>
                <td>{task.syndicate}</td>
                <td>{whenOf(task)}</td>
                <td>{task.session === 'new' ? 'new per run' : task.session.fixed}</td>
                <td>{task.runAs}</td>
                <td>{task.lastScheduledFor === null ? '-' : when(task.lastScheduledFor)}</td>
                <td>
                  <button type="button" class="small" onClick={() => setOpen(open?.id === task.id ? undefined : task)}>
                    Runs
                  </button>{' '}
                  {task.origin === 'file' ? (
                    <span class="muted" title="Declared under schedules: in its syndicate file: remove it there">
                      from its file
                    </span>
                  ) : (
                    <button type="button" class="small" onClick={() => void remove(task)}>
                      Remove
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && <TaskRuns task={open} />}
    </section>
  );
}

function TaskRuns({ task }: { task: Task }) {
  const [runs, setRuns] = useState<TaskRun[]>();
  const [error, setError] = useState<string>();
  useRefreshing(() => void getJson<{ runs: TaskRun[] }>(`/tasks/${encodeId(task.id)}/runs?limit=20`).then((answer) => setRuns(answer.runs), (failure: Error) => setError(failure.message)), task.id);
  if (error) return <p class="failure">The runs of '{task.name}' could not be read: {error}</p>;
  if (!runs) return <p class="muted">Loading…</p>;
  return (
    <div class="task-runs" data-runs-of={task.name}>
      <h3>Runs of {task.name}</h3>
      {runs.length === 0 ? (
        <p class="muted">It has not fired yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>scheduled</th>
              <th>status</th>
              <th>session</th>
              <th>answer or why</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.id} data-status={run.status}>
                <td>{when(run.scheduledFor)}</td>
                <td>{run.status}</td>
                <td class="muted">{run.sessionId ?? '-'}</td>
                <td>{run.answer ?? run.detail ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function AddTaskForm({ syndicates, onAdded }: { syndicates: SyndicateSummary[]; onAdded(): void }) {
  const loaded = syndicates.filter((entry) => entry.status === 'ok');
  const [syndicate, setSyndicate] = useState(loaded[0]?.id ?? '');
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'cron' | 'at'>('cron');
  const [schedule, setSchedule] = useState('');
  const [timezone, setTimezone] = useState('');
  const [message, setMessage] = useState('');
  const [failure, setFailure] = useState<string>();
  const value = (event: Event): string => (event.target as HTMLInputElement).value;

  async function add(event: Event) {
    event.preventDefault();
    setFailure(undefined);
    const when = kind === 'cron' ? { cron: schedule.trim(), ...(timezone.trim() ? { timezone: timezone.trim() } : {}) } : { at: schedule.trim() };
    try {
      await sendJson('POST', '/tasks', { syndicate, name: name.trim(), message, ...when });
      setName('');
      setSchedule('');
      setMessage('');
      onAdded();
    } catch (error) {
      setFailure((error as Error).message);
    }
  }

  return (
    <form class="add-task toolbar" onSubmit={(event) => void add(event)}>
      <select aria-label="Task syndicate" value={syndicate} onChange={(event) => setSyndicate(value(event))}>
        {loaded.map((entry) => (
          <option value={entry.id} key={entry.id}>
            {entry.name}
          </option>
        ))}
      </select>
      <input aria-label="Task name" placeholder="name, e.g. morning-brief" value={name} onInput={(event) => setName(value(event))} />
      <select aria-label="Schedule kind" value={kind} onChange={(event) => setKind(value(event) as 'cron' | 'at')}>
        <option value="cron">cron</option>
        <option value="at">once at</option>
      </select>
      <input aria-label="Schedule" placeholder={kind === 'cron' ? '0 8 * * 1-5 (seconds allowed)' : '2026-12-24T09:00:00Z'} value={schedule} onInput={(event) => setSchedule(value(event))} />
      {kind === 'cron' && <input aria-label="Time zone" placeholder="time zone (UTC)" value={timezone} onInput={(event) => setTimezone(value(event))} />}
      <input aria-label="Task message" placeholder="what each run asks" value={message} onInput={(event) => setMessage(value(event))} />
      <button type="submit" disabled={!syndicate || !name.trim() || !schedule.trim() || !message.trim()}>
        Add task
      </button>
      {failure && (
        <p class="failure" role="alert">
          {failure}
        </p>
      )}
    </form>
  );
}
