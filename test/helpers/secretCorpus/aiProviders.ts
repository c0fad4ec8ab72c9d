/**
 * Fake keys of AI providers, generated from each provider's published key format (prefix,
 * length, alphabet) — the secrets an AI coding tool is most likely to see. None of these is
 * a real key: every character after the prefix is drawn from a seeded generator.
 */
import { ALNUM, BASE64URL, HEX, LETTERS, draw, type Draw } from './alphabet';
import type { CorpusKey } from './types';

/** A one-line token key whose secret part is the whole value after `prefix`. */
export function token(family: string, variant: string, name: string, prefix: string, body: string, source: string): CorpusKey {
  const value = `${prefix}${body}`;
  return { family, variant, name, value, shape: 'line', secrets: [{ text: value, publicPrefix: prefix.length }], source };
}

/** The body (after `sk-<kind>-`) of OpenAI's project, service-account and admin keys: `n` base64url + `T3BlbkFJ` (base64 of "OpenAI") + `n` base64url. */
function openaiKey(d: Draw, n: number): string {
  const half = () => `${d.pick(ALNUM, 1)}${d.pick(BASE64URL, n - 2)}${d.pick(ALNUM, 1)}`;
  return `${half()}T3BlbkFJ${half()}`;
}

/** Anthropic keys: `sk-ant-<kind>-` + 93 base64url + `AA` (about 108 characters; Anthropic Console API keys, Admin API keys). */
function anthropicBody(d: Draw): string {
  return `${d.pick(ALNUM, 1)}${d.pick(BASE64URL, 92)}AA`;
}

/**
 * Keys of AI providers, one per format drawn from `seed`, from their published formats:
 * OpenAI (`sk-proj-`, `sk-svcacct-`, `sk-admin-`, legacy `sk-` + 20 + `T3BlbkFJ` + 20),
 * Anthropic (`sk-ant-api03-`, `sk-ant-admin01-`, `sk-ant-oat01-`), Google API keys
 * (`AIza` + 35 of `[0-9A-Za-z_-]`), xAI (`xai-` + 80), OpenRouter (`sk-or-v1-` + 64 hex),
 * Groq (`gsk_` + 52), Mistral (32 alphanumerics), Cohere (40 alphanumerics), Replicate
 * (`r8_` + 37), Perplexity (`pplx-` + 48), Hugging Face (`hf_` + 34 letters, `api_org_` + 34),
 * LangSmith (`lsv2_pt_`/`lsv2_sk_` + 32 hex + `_` + 10 hex), Together (`tgp_v1_` + 43
 * base64url; legacy 64 hex), Fireworks (`fw_` + 24), Azure OpenAI (32 hex), DeepSeek (`sk-` + 32 hex).
 */
export function aiProviderKeys(seed: number): CorpusKey[] {
  const d = draw(seed);
  const out: CorpusKey[] = [];
  const openai = 'OpenAI API keys: sk-proj-/sk-svcacct-/sk-admin- + base64url around T3BlbkFJ';
  out.push(
    token('openai', 'sk-proj', 'OPENAI_API_KEY', 'sk-proj-', openaiKey(d, 74), openai),
    token('openai', 'sk-svcacct', 'OPENAI_API_KEY', 'sk-svcacct-', openaiKey(d, 74), openai),
    token('openai', 'sk-admin', 'OPENAI_ADMIN_KEY', 'sk-admin-', openaiKey(d, 58), openai),
    token('openai', 'legacy', 'OPENAI_API_KEY', 'sk-', `${d.pick(ALNUM, 20)}T3BlbkFJ${d.pick(ALNUM, 20)}`, 'OpenAI legacy user keys: sk- + 20 + T3BlbkFJ + 20 alphanumerics'),
    token('anthropic', 'api03', 'ANTHROPIC_API_KEY', 'sk-ant-api03-', anthropicBody(d), 'Anthropic API keys: sk-ant-api03- + 93 base64url + AA'),
    token('anthropic', 'admin01', 'ANTHROPIC_ADMIN_KEY', 'sk-ant-admin01-', anthropicBody(d), 'Anthropic Admin API keys: sk-ant-admin01- + 93 base64url + AA'),
    token('anthropic', 'oat01', 'CLAUDE_CODE_OAUTH_TOKEN', 'sk-ant-oat01-', anthropicBody(d), 'Anthropic OAuth tokens (claude setup-token): sk-ant-oat01- + 93 base64url + AA'),
    token('google', 'api-key', 'GEMINI_API_KEY', 'AIza', `Sy${d.pick(BASE64URL, 32)}${d.pick(ALNUM, 1)}`, 'Google Cloud API keys: AIza + 35 of [0-9A-Za-z_-]'),
    token('xai', 'api-key', 'XAI_API_KEY', 'xai-', d.pick(ALNUM, 80), 'xAI API keys: xai- + 80 alphanumerics'),
    token('openrouter', 'v1', 'OPENROUTER_API_KEY', 'sk-or-v1-', d.pick(HEX, 64), 'OpenRouter API keys: sk-or-v1- + 64 hex'),
    token('groq', 'gsk', 'GROQ_API_KEY', 'gsk_', d.pick(ALNUM, 52), 'Groq API keys: gsk_ + 52 alphanumerics'),
    token('mistral', 'api-key', 'MISTRAL_API_KEY', '', d.pick(ALNUM, 32), 'Mistral API keys: 32 alphanumerics, no prefix'),
    token('cohere', 'api-key', 'COHERE_API_KEY', '', d.pick(ALNUM, 40), 'Cohere API keys: 40 alphanumerics, no prefix'),
    token('replicate', 'r8', 'REPLICATE_API_TOKEN', 'r8_', d.pick(ALNUM, 37), 'Replicate API tokens: r8_ + 37 alphanumerics'),
    token('perplexity', 'pplx', 'PERPLEXITY_API_KEY', 'pplx-', d.pick(ALNUM, 48), 'Perplexity API keys: pplx- + 48 alphanumerics'),
    token('huggingface', 'hf', 'HF_TOKEN', 'hf_', d.pick(LETTERS, 34), 'Hugging Face user access tokens: hf_ + 34 letters'),
    token('huggingface', 'api_org', 'HUGGINGFACE_ORG_TOKEN', 'api_org_', d.pick(LETTERS, 34), 'Hugging Face organisation tokens: api_org_ + 34 letters'),
    token('langsmith', 'lsv2_pt', 'LANGSMITH_API_KEY', 'lsv2_pt_', `${d.pick(HEX, 32)}_${d.pick(HEX, 10)}`, 'LangSmith personal access tokens: lsv2_pt_ + 32 hex + _ + 10 hex'),
    token('langsmith', 'lsv2_sk', 'LANGCHAIN_API_KEY', 'lsv2_sk_', `${d.pick(HEX, 32)}_${d.pick(HEX, 10)}`, 'LangSmith service keys: lsv2_sk_ + 32 hex + _ + 10 hex'),
    token('together', 'tgp_v1', 'TOGETHER_API_KEY', 'tgp_v1_', `${d.pick(BASE64URL, 42)}${d.pick(ALNUM, 1)}`, 'Together AI API keys: tgp_v1_ + 43 base64url'),
    token('together', 'legacy-hex', 'TOGETHER_API_KEY', '', d.pick(HEX, 64), 'Together AI legacy API keys: 64 hex, no prefix'),
    token('fireworks', 'fw', 'FIREWORKS_API_KEY', 'fw_', d.pick(ALNUM, 24), 'Fireworks AI API keys: fw_ + 24 alphanumerics'),
    token('azure-openai', 'api-key', 'AZURE_OPENAI_API_KEY', '', d.pick(HEX, 32), 'Azure OpenAI resource keys: 32 hex, no prefix'),
    token('deepseek', 'sk-hex', 'DEEPSEEK_API_KEY', 'sk-', d.pick(HEX, 32), 'DeepSeek API keys: sk- + 32 hex'),
  );
  return out;
}
