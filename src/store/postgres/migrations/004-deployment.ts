// Facts about the deployment that every process must agree on, recorded by the first process to
// start: where the files live (the bucket and key prefix). A process configured with another bucket
// or prefix would find none of the files the database names.
export const name = 'deployment';

export const sql = `
CREATE TABLE deployment (
  key TEXT COLLATE "C" PRIMARY KEY,
  value TEXT NOT NULL
);
`;
