import { canonicalJson, sha256 } from './identity.js';
import { ImportError } from './import-error.js';
import { firstLine, isObj, type Obj } from './json-object.js';
import { readWholeText } from './whole-text.js';
import { outsideUnit, type ImportedSample, type ImportGroup, type ParsedLog } from './imported-sample.js';


/** promptfoo's ResultFailureReason.ERROR: the provider or the test errored, there is nothing to grade. */
const FAILURE_ERROR = 2;

function providerName(p: unknown): string {
  if (typeof p === 'string') return p;
  if (isObj(p)) return typeof p['label'] === 'string' && p['label'] !== '' ? p['label'] : typeof p['id'] === 'string' ? p['id'] : 'unknown';
  return 'unknown';
}

function promptName(p: unknown, idx: number): string {
  if (isObj(p)) {
    if (typeof p['label'] === 'string' && p['label'] !== '') return p['label'];
    if (typeof p['raw'] === 'string') return `prompt ${sha256(p['raw']).slice(0, 8)}`;
  }
  return `prompt ${idx}`;
}

/**
 * What of a promptfoo test case defines its expected result besides its vars: the assertions, the
 * threshold their weighted score must reach, the options (the grader, a rubric prompt, a transform of the
 * output, a prefix or suffix of the prompt), and a custom scoring function.
 */
const GRADING_KEYS = ['assert', 'threshold', 'options', 'assertScoringFunction'] as const;

/**
 * The hash that checks a promptfoo test: sha256 of the canonical JSON of its vars and of the test case's
 * grading ({@link GRADING_KEYS}, those it has), so that a test whose assertion changed between two files
 * does not pair (as inspect hashes a sample's target with its input).
 */
export function promptfooInputHash(vars: unknown, testCase: Obj): string {
  const grading = Object.fromEntries(GRADING_KEYS.filter((k) => testCase[k] !== undefined && testCase[k] !== null).map((k) => [k, testCase[k]]));
  return sha256(canonicalJson({ vars: vars ?? {}, ...grading }));
}

/**
 * The samples of one provider x prompt, each marked with the repeat of its test case it is
 * ({@link ImportedSample.repeat}): `promptfoo eval --repeat N` gives each repeat a testIdx of its own, with
 * the same vars and test case, so the k-th of a test's results in testIdx order is its repeat k.
 */
function withRepeats(samples: readonly ImportedSample[], tests: ReadonlyMap<string, string>): ImportedSample[] {
  const order = [...samples].sort((a, b) => (a.sampleId as number) - (b.sampleId as number));
  const seen = new Map<string, number>();
  const repeatOf = new Map<ImportedSample, { of: string; n: number }>();
  for (const s of order) {
    const of = tests.get(s.place) ?? s.inputHash;
    const n = (seen.get(of) ?? 0) + 1;
    seen.set(of, n);
    repeatOf.set(s, { of, n });
  }
  return samples.map((s) => ({ ...s, repeat: repeatOf.get(s) as { of: string; n: number } }));
}

/**
 * Reads promptfoo's `promptfoo eval -o results.json` (results version 3): one group per provider x
 * prompt, each test case (`testIdx`) a sample whose outcome is `success` (passed or failed), whose score is
 * `score`, and which has no outcome when promptfoo records an error (failureReason 2; in a file written
 * before promptfoo had failureReason, a result with success false, an `error` or `response.error`, and no
 * `gradingResult`), nor when its score is outside [0, 1] (an unreadable score, as inspect's and lm-eval's).
 *
 * @param path - the file.
 * @param shown - its name for messages.
 * @throws {@link ImportError} when the file is not JSON, not promptfoo's output, or of another version.
 */
export async function readPromptfooResults(path: string, shown: string): Promise<ParsedLog> {
  // One provider's results keep their testIdx, and each provider x prompt is a run of its own: a file
  // too large splits by provider without changing what pairs.
  const text = await readWholeText(path, shown, "run the eval again one provider at a time (promptfoo eval --filter-providers REGEX -o results.json, one file per provider; each keeps its test cases' testIdx, so the runs pair as before) and import each file; for a file of one provider, split its test cases into several evals, the same split for each model compared (each eval numbers its tests from testIdx 0)");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ImportError(shown, '', `is not JSON (${firstLine(err)}); pass the file promptfoo eval -o results.json wrote.`);
  }
  const outer = isObj(data) && isObj(data['results']) ? (data['results'] as Obj) : null;
  if (outer === null || !Array.isArray(outer['results'])) {
    throw new ImportError(shown, '', 'has no results.results list, so it is not the output of promptfoo eval -o results.json; name the right format.');
  }
  if (outer['version'] !== 3) throw new ImportError(shown, 'results.version', `is ${JSON.stringify(outer['version'])}; only promptfoo's results version 3 is read: export the eval again with a current promptfoo (promptfoo eval -o results.json).`);
  const config = isObj((data as Obj)['config']) ? ((data as Obj)['config'] as Obj) : {};
  const task = typeof config['description'] === 'string' && config['description'].trim() !== '' ? config['description'] : 'promptfoo';
  const groups = new Map<string, { provider: string; prompt: string; promptIdx: number | null; place: string; samples: ImportedSample[] }>();
  const tests = new Map<string, string>(); // place -> the hash of the test case's vars and test case
  (outer['results'] as unknown[]).forEach((r, i) => {
    const place = `results.results[${i}]`;
    if (!isObj(r) || typeof r['testIdx'] !== 'number' || !Number.isInteger(r['testIdx'])) {
      throw new ImportError(shown, place, 'has no integer testIdx, so it is not a promptfoo EvaluateResult; pass promptfoo eval -o results.json output.');
    }
    const provider = providerName(r['provider']);
    const promptIdx = typeof r['promptIdx'] === 'number' ? r['promptIdx'] : null;
    const prompt = promptName(r['prompt'], promptIdx ?? 0);
    const gk = JSON.stringify([provider, prompt]);
    let g = groups.get(gk);
    if (g === undefined) {
      g = { provider, prompt, promptIdx, place, samples: [] };
      groups.set(gk, g);
    } else if (promptIdx !== g.promptIdx && promptIdx !== null && g.promptIdx !== null) {
      // promptfoo numbers each provider x prompt it ran (promptIdx); two of them that read as one provider
      // and prompt are two providers of one id without labels (e.g. two configs of one model), or two prompts of one label.
      throw new ImportError(
        shown,
        place,
        `is promptIdx ${promptIdx}, and promptIdx ${g.promptIdx} (${g.place}) has the same provider ${provider} and prompt ${prompt}; two providers with one id and no label (or two prompts with one label) cannot be told apart: give the providers distinct labels in the promptfoo config (a label: of its own under each providers: entry), and the prompts too, then run promptfoo eval -o results.json again.`,
      );
    }
    const testCase = isObj(r['testCase']) ? r['testCase'] : {};
    const vars = r['vars'] ?? testCase['vars'] ?? {};
    tests.set(place, sha256(canonicalJson({ vars, testCase })));
    const response = isObj(r['response']) ? r['response'] : {};
    const said = [r['error'], response['error']].find((e): e is string => typeof e === 'string' && e.trim() !== '') ?? null;
    // Before promptfoo's failureReason (PR #3141, February 2025) an error was success false with an error
    // and no gradingResult; an assertion's failure has its gradingResult.
    const ungraded = r['failureReason'] === undefined && r['success'] === false && (r['gradingResult'] === undefined || r['gradingResult'] === null) && said !== null;
    const errored = r['failureReason'] === FAILURE_ERROR || ungraded || (typeof r['success'] !== 'boolean' && r['error'] !== undefined && r['error'] !== null);
    const errText = said ?? 'promptfoo recorded an error';
    const score = typeof r['score'] === 'number' && Number.isFinite(r['score']) ? r['score'] : null;
    // A run's scores are in [0, 1]: one outside is an unreadable score, as inspect's and lm-eval's are (grade()).
    const unreadable = !errored && score !== null ? outsideUnit(score, 'score') : null;
    g.samples.push({
      task,
      fixed: {},
      metadata: isObj(testCase['metadata']) ? testCase['metadata'] : {},
      key: `testIdx ${r['testIdx']}`,
      sampleId: r['testIdx'],
      epoch: null,
      inputHash: promptfooInputHash(vars, testCase),
      outcome: errored || unreadable !== null || typeof r['success'] !== 'boolean' ? null : r['success'] ? 'passed' : 'failed',
      score: errored || unreadable !== null ? null : score,
      error: errored ? `ProviderError: ${errText.split('\n')[0] ?? ''}` : (unreadable ?? (typeof r['success'] !== 'boolean' ? 'NoScore: the result has no success' : null)),
      t: typeof r['latencyMs'] === 'number' ? r['latencyMs'] / 1000 : 0,
      extra: {
        prompt_idx: promptIdx,
        named_scores: isObj(r['namedScores']) ? r['namedScores'] : {},
        ...(typeof testCase['description'] === 'string' ? { description: testCase['description'] } : {}),
        ...(isObj(testCase['metadata']) ? { metadata: testCase['metadata'] } : {}),
      },
      file: shown,
      place,
    });
  });
  if (groups.size === 0) throw new ImportError(shown, 'results.results', 'is empty; there is nothing to import.');
  const out: ImportGroup[] = [...groups.values()].map((g) => ({ provider: g.provider, prompt: g.prompt, model: g.provider, samples: withRepeats(g.samples, tests) }));
  return {
    model: out.map((g) => g.model).join(', '),
    tasks: [task],
    config: { evalId: (data as Obj)['evalId'] ?? null, timestamp: outer['timestamp'] ?? null, config },
    harnessVersion: null,
    formatVersion: 3,
    complete: true,
    sourceStatus: null,
    scorer: 'success',
    groups: out,
  };
}
