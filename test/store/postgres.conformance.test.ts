import { describe } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { describeBackgroundJobsConformance } from './backgroundJobsConformance.js';
import { describeStoreConformance } from './conformance.js';
import { describeDocumentStorageConformance } from './documentsConformance.js';
import { describeDreamRunsConformance } from './dreamRunsConformance.js';
import { describeFactStoreConformance } from './factsConformance.js';
import { describeSessionNotesConformance } from './notesConformance.js';
import { describeSchedulesConformance } from './schedulesConformance.js';
import { POSTGRES_TESTS, usePostgresDatabase } from './postgresCluster.js';
import { describeTaskRecordsConformance } from './tasksConformance.js';
import { describeUserRecordsConformance } from './usersConformance.js';

// The conformance suites the SQLite store passes, against PostgreSQL + pgvector on a throwaway cluster.
describe.runIf(POSTGRES_TESTS)('PostgreSQL store', () => {
  const database = usePostgresDatabase();
  const open = () => openPostgresStore(database());

  describeStoreConformance('postgres', open);
  describeTaskRecordsConformance('postgres', open);
  describeFactStoreConformance('postgres', open);
  describeDocumentStorageConformance('postgres', open);
  describeSessionNotesConformance('postgres', open);
  describeBackgroundJobsConformance('postgres', open);
  describeUserRecordsConformance('postgres', open);
  describeSchedulesConformance('postgres', open);
  describeDreamRunsConformance('postgres', open);
});
