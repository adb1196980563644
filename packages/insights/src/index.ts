export * from './schemas';
export { InsightsError, INSIGHTS_ERROR_CODES, type InsightsErrorCode } from './errors';
export { dayNumberOf, calendarDateOf, type CalendarDate } from './calendar-date';
export { sunSign, birthInstantUtc, type BirthMoment } from './horoscope/sun-sign';
export { signOfLongitude } from './horoscope/zodiac';
export { moonOfDay, phaseOfAngle } from './horoscope/moon';
export { dailyHoroscope } from './horoscope/daily-horoscope';
export { HOROSCOPE_DISCLAIMER } from './horoscope/reading-phrases';
export {
  biorhythm,
  biorhythmValue,
  isCriticalDay,
  BIORHYTHM_PERIOD_DAYS,
  PRIMARY_BIORHYTHM_CYCLES,
  MAX_BIORHYTHM_RANGE_DAYS,
  BIORHYTHM_DISCLAIMER,
  type BiorhythmRequest,
} from './biorhythm/biorhythm';
export {
  populationInsights,
  countryPopulation,
  POPULATION_SOURCE,
  POPULATION_DATA_YEAR,
  TOP_COUNTRIES_PER_GROUP,
} from './population/population-insights';
export { GROUP_REGIONS, GROUP_CAVEATS, type WorldRegion } from './population/group-regions';
export { culturalInsights, CULTURAL_INSIGHTS } from './cultural/cultural-insights';
