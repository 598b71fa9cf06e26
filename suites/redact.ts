import type { Exchange } from './exchange';

/**
 * A target may echo a token back ("invalid token abc…"); evidence must never carry one, so every
 * configured token is blotted out of what came back before anything keeps the exchange.
 */
export function redactTokens(exchange: Exchange, tokens: string[]): void {
  const secrets = tokens.filter((t) => t.length >= 4);
  if (!exchange.response || secrets.length === 0) return;
  const blot = (text: string) => secrets.reduce((out, secret) => out.split(secret).join('<redacted token>'), text);
  const { response } = exchange;
  if (!secrets.some((secret) => response.body.includes(secret) || Object.values(response.headers).some((v) => v.includes(secret)))) return;
  response.body = blot(response.body);
  for (const key of Object.keys(response.headers)) response.headers[key] = blot(response.headers[key]);
  if (response.json !== undefined) response.json = JSON.parse(blot(JSON.stringify(response.json)));
}
