// Claims of one-time (legacy) downloads: of two simultaneous first downloads through any API
// processes, only the one whose claim took is served.
export const name = 'download-claims';

export const sql = `
CREATE TABLE download_claims (
  output_id TEXT COLLATE "C" PRIMARY KEY,
  until BIGINT NOT NULL
);
`;
