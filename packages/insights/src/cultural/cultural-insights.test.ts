import { describe, expect, it } from 'vitest';
import { culturalInsightSchema, HERITAGE_GROUP_IDS } from '../schemas';
import { CULTURAL_INSIGHTS, culturalInsights } from './cultural-insights';

/** Words that would make a text describe people's nature, ability or looks (ADR 023 checklist). */
const FORBIDDEN_GENERALISATIONS =
  /\b(all|every|typical(ly)?|naturally|by nature|innately?|always) (\w+ )?(people|women|men|persons)\b|\b(lazy|smart|intelligent|aggressive|exotic|primitive|tribal|race|racial)\b/i;

describe('cultural insights content', () => {
  it('has exactly one entry per heritage group', () => {
    expect(CULTURAL_INSIGHTS.map((insight) => insight.id).sort()).toEqual([...HERITAGE_GROUP_IDS].sort());
  });

  it.each(HERITAGE_GROUP_IDS)('gives %s a valid entry with at least two https sources', (groupId) => {
    const [insight] = culturalInsights([groupId]);
    const parsed = culturalInsightSchema.parse(insight);
    expect(parsed.sources.length).toBeGreaterThanOrEqual(2);
    for (const source of parsed.sources) expect(source.url).toMatch(/^https:\/\//);
    expect(parsed.sources.some((source) => source.url.startsWith('https://ich.unesco.org/'))).toBe(true);
  });

  it.each(HERITAGE_GROUP_IDS)('stresses diversity and avoids generalising words for %s', (groupId) => {
    const [insight] = culturalInsights([groupId]);
    if (!insight) throw new Error(`no insight for ${groupId}`);
    expect(insight.diversityNote.length).toBeGreaterThan(60);
    const text = [
      insight.title,
      insight.overview,
      insight.diversityNote,
      ...insight.regions,
      ...insight.languages,
      ...insight.traditions,
      ...insight.cuisine,
    ].join(' ');
    expect(text).not.toMatch(FORBIDDEN_GENERALISATIONS);
  });

  it('answers in the order asked, once per group, and rejects unknown ids', () => {
    expect(culturalInsights(['indian', 'white', 'indian']).map((insight) => insight.id)).toEqual(['indian', 'white']);
    expect(() => culturalInsights(['unknown'])).toThrow(expect.objectContaining({ code: 'UNKNOWN_HERITAGE_GROUP' }) as Error);
  });
});
