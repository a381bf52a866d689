import { describe, expect, it } from 'vitest';
import * as stats from './index.js';

describe('poisson-stats barrel', () => {
  it('exports exactly the public API (values; types are erased)', () => {
    expect(Object.keys(stats).sort()).toEqual(
      [
        'CONFIDENCE_SEQUENCE_METHOD',
        'MCNEMAR_METHODS',
        'bellMcCaffreyDf',
        'benjaminiHochberg',
        'bonferroni',
        'clusterRobustMean',
        'clusteredChangeConfidenceSequence',
        'clusterRobustMeanDifference',
        'criticalDiscordant',
        'discordanceSlope',
        'fisherExact',
        'fisherMinimumDetectableChange',
        'fisherPower',
        'POWER_TRUNCATION',
        'holm',
        'mcnemar',
        'mcnemarPower',
        'meanConfidenceSequence',
        'meanScoreInterval',
        'minimumDetectableChange',
        'newcombeInterval',
        'pairedChangeConfidenceSequence',
        'pairedScoreDifference',
        'roundSignificant',
        'tangoInterval',
        'unpairedMinimumDetectableChange',
        'unpairedPower',
        'wilsonInterval',
        'betaMixtureLogE',
        'sequentialCriticalCounts',
        'sequentialMcnemar',
        'sequentialMinimumDetectableChange',
        'sequentialPower',
        'SEQUENTIAL_MCNEMAR_METHOD',
        'clusteredMcnemar',
      ].sort(),
    );
  });
});
