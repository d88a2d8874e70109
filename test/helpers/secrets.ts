// Fake secrets of every kind the redactor knows, assembled at run time so that no scanner
// mistakes this file for a leak.
const r = (n: number, chars = 'A1b2C3d4E5f6G7h8') =>
  Array.from({ length: n }, (_, i) => chars[i % chars.length]).join('');
/** One fake secret of each kind the redactor knows. */
export const SECRETS: Record<string, string> = {
  aws_access_key: `AKIA${'IOSFODNN7EXAMPLE'}`,
  aws_secret: `aws_secret_access_key = ${r(40)}`,
  github_token: `ghp_${r(36)}`,
  github_pat: `github_pat_${r(22)}_${r(59)}`,
  gitlab_token: `glpat-${r(20)}`,
  slack_token: `xoxb-${'123456789012'}-${r(24)}`,
  slack_webhook: `https://hooks.slack.com/services/T00000000/B00000000/${r(24)}`,
  openai_key: `sk-proj-${r(48)}`,
  anthropic_key: `sk-ant-api03-${r(90)}`,
  npm_token: `npm_${r(36)}`,
  private_key: `-----BEGIN RSA PRIVATE KEY-----\n${r(64)}\n${r(64)}\n-----END RSA PRIVATE KEY-----`,
  password: `password=${'hunter2hunter2'}`,
  secret_yaml: `client_secret: "${r(18)}"`,
  bearer: `Authorization: Bearer ${r(40, 'abcDEF123._-')}`,
  jwt: `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${r(43, 'jwtSIG123_-')}`,
  url_password: `https://deploy:${r(18, 'urlPW456')}@git.example.com/org/repo.git`,
  basic_auth: `Authorization: Basic ${Buffer.from(`admin:${r(12, 'bAsIc789')}`).toString('base64')}`,
  password_flag: `--password ${r(14, 'flagPW321')}`,
  mysql_password: `mysql -u root -p${r(12, 'mySQL654')} appdb`,
};

/** The part of each fake secret that must not survive redaction. */
export function sensitivePart(kind: string, text: string): string {
  if (kind === 'private_key') return text.split('\n')[1]!;
  if (kind === 'aws_secret') return text.split('= ')[1]!;
  if (kind === 'password') return 'hunter2hunter2';
  if (kind === 'secret_yaml') return text.split('"')[1]!;
  if (kind === 'bearer') return text.split('Bearer ')[1]!;
  if (kind === 'jwt') return text.split('.')[2]!;
  if (kind === 'url_password') return text.split(/[:@]/)[2]!;
  if (kind === 'basic_auth') return text.split('Basic ')[1]!;
  if (kind === 'password_flag') return text.split(' ')[1]!;
  if (kind === 'mysql_password') return text.split(' -p')[1]!.split(' ')[0]!;
  return text;
}
