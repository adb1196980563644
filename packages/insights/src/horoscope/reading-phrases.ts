/**
 * The daily-reading content set, written for Roots. Every phrase is original, gentle and
 * general: no predictions of harm, no medical, financial or relationship advice that someone
 * could act on to their cost. Slots are combined independently, so 16 × 14 × 14 × 14 × 14 colours
 * × 99 numbers gives far more readings than there are days in a lifetime.
 */

export const MOOD_PHRASES: readonly string[] = [
  'A calm, unhurried energy runs through the day; let small things take the time they need.',
  'Curiosity leads today. A question you have been carrying finds a first, simple answer.',
  'You may feel more sociable than usual; a short conversation could lift the whole afternoon.',
  'A quieter mood suits you today. Listening closely brings more than speaking first.',
  'Fresh ideas arrive in the morning; jot them down before the day fills up.',
  'Patience is your quiet strength today, and things settle into place on their own.',
  'A playful streak shows up today; humour makes an ordinary task feel lighter.',
  'You notice details others miss. Trust that eye for the small things.',
  'A sense of renewal colours the day, a good moment to tidy one corner of life.',
  'Steady and grounded is the tone today; routines feel comforting rather than dull.',
  'An adventurous spark appears. Try a new route, a new dish or a new song.',
  'Your thoughts turn reflective; an old memory brings a warm smile.',
  'Optimism comes easily today, and it is catching for the people around you.',
  'The day rewards focus: one thing done well beats five things started.',
  'A gentle burst of confidence helps you say the thing you have been meaning to say.',
  'You feel in tune with your surroundings; beauty hides in ordinary places today.',
];

export const LOVE_PHRASES: readonly string[] = [
  'Small gestures speak loudly today: a message, a kind word, a shared cup of tea.',
  'Honest, light-hearted conversation brings people closer than grand plans.',
  'Give the people you care about your full attention for a while; it is noticed.',
  'A friendship may feel especially warm today. Say thank you out loud.',
  'Make room for laughter with someone close; it smooths over any small tension.',
  'If you are single, enjoy your own company; good connections start from ease.',
  'Shared plans, even small ones like a walk or a film, feel meaningful today.',
  'Listening without rushing to answer is the most loving thing you can offer today.',
  'An old friend or relative may be on your mind; a short call could brighten both days.',
  'Affection grows in familiar rituals today: cooking together, a favourite playlist.',
  'Be generous with compliments; they cost nothing and land beautifully.',
  'A relaxed, easy evening with loved ones suits the mood of the day.',
  'Notice what someone does for you without being asked, and let them know you saw it.',
  'Warmth flows both ways today; accept kindness as readily as you give it.',
];

export const WORK_PHRASES: readonly string[] = [
  'A good day to finish something rather than start something new.',
  'Clear notes and short messages save time later; write them down now.',
  'Collaboration goes smoothly; an idea from a colleague fits neatly with yours.',
  'Break a big task into three small steps and take the first one before lunch.',
  'Your organising skills shine today; a tidy list brings a calm mind.',
  'A creative approach to a routine task could turn out faster than expected.',
  'Ask the question you have been postponing; the answer is simpler than you think.',
  'Steady progress beats speed today. Keep a comfortable, even pace.',
  'A piece of feedback, given or received kindly, moves a project forward.',
  'Learning something small and new today pays off sooner than you expect.',
  'Keep the afternoon for focused work and the morning for conversations.',
  'An old idea deserves a second look; timing may finally be on its side.',
  'Celebrate a small win today, yours or a teammate’s.',
  'Clear boundaries around your time help you do your best work today.',
];

export const WELLBEING_PHRASES: readonly string[] = [
  'A short walk outdoors helps clear the head and reset the day.',
  'Keep a glass of water nearby and enjoy unhurried meals.',
  'Stretch for a few minutes between tasks; your shoulders will thank you.',
  'An earlier night than usual would feel like a small luxury.',
  'A few slow, deep breaths before a busy moment bring a sense of calm.',
  'Step away from screens for a while and let your eyes rest on something far away.',
  'Music you love can change the tone of an ordinary hour.',
  'Spend a little time in daylight today, even if only by a window.',
  'A tidy space supports a tidy mind; clear one surface and enjoy it.',
  'Give yourself permission to rest without earning it first.',
  'A hobby you enjoy deserves a slot in today’s plans, however small.',
  'Notice three good things before bed; it is a gentle way to end the day.',
  'Move in a way that feels good to you: dancing in the kitchen counts.',
  'Be as kind to yourself as you would be to a good friend today.',
];

export const LUCKY_COLOURS: readonly string[] = [
  'Crimson',
  'Amber',
  'Gold',
  'Emerald',
  'Teal',
  'Sky blue',
  'Indigo',
  'Violet',
  'Rose',
  'Coral',
  'Ivory',
  'Silver',
  'Sage green',
  'Turquoise',
];

/** Shown with every reading (product rule: the horoscope is entertainment, not advice). */
export const HOROSCOPE_DISCLAIMER = 'For entertainment only. Horoscopes are not predictions and are not a basis for decisions.';
