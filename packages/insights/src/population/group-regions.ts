import type { HeritageGroupId } from '../schemas';

export interface WorldRegion {
  /** Display name of the region. */
  name: string;
  /** Country names exactly as spelt in the shipped data set (`country-json`). */
  countries: readonly string[];
}

/**
 * Where people whose faces resemble each report group mostly live (ADR 022). The report's groups
 * are visual-resemblance categories, not ancestries, nationalities or ethnic identities: every
 * region below is home to many people of other appearances, and each group also lives far
 * outside these regions. Regions follow the UN M49 geoscheme where it fits, and say so where they
 * do not (Iran and Turkey are grouped with the Middle East, as in common usage).
 */
export const GROUP_REGIONS: Readonly<Record<HeritageGroupId, readonly WorldRegion[]>> = {
  white: [
    {
      name: 'Europe',
      countries: [
        'Albania',
        'Andorra',
        'Austria',
        'Belarus',
        'Belgium',
        'Bosnia and Herzegovina',
        'Bulgaria',
        'Croatia',
        'Czech Republic',
        'Denmark',
        'Estonia',
        'Finland',
        'France',
        'Germany',
        'Greece',
        'Hungary',
        'Iceland',
        'Ireland',
        'Italy',
        'Latvia',
        'Liechtenstein',
        'Lithuania',
        'Luxembourg',
        'Malta',
        'Moldova',
        'Monaco',
        'Montenegro',
        'Netherlands',
        'North Macedonia',
        'Norway',
        'Poland',
        'Portugal',
        'Romania',
        'Russia',
        'San Marino',
        'Serbia',
        'Slovakia',
        'Slovenia',
        'Spain',
        'Sweden',
        'Switzerland',
        'Ukraine',
        'United Kingdom',
      ],
    },
    { name: 'Northern America', countries: ['United States', 'Canada'] },
    { name: 'Australia and New Zealand', countries: ['Australia', 'New Zealand'] },
  ],
  black: [
    {
      name: 'Sub-Saharan Africa',
      countries: [
        'Angola',
        'Benin',
        'Botswana',
        'Burkina Faso',
        'Burundi',
        'Cabo Verde',
        'Cameroon',
        'Central African Republic',
        'Chad',
        'Comoros',
        'Congo',
        'The Democratic Republic of Congo',
        'Djibouti',
        'Equatorial Guinea',
        'Eritrea',
        'Eswatini',
        'Ethiopia',
        'Gabon',
        'Gambia',
        'Ghana',
        'Guinea',
        'Guinea-Bissau',
        'Ivory Coast',
        'Kenya',
        'Lesotho',
        'Liberia',
        'Madagascar',
        'Malawi',
        'Mali',
        'Mauritania',
        'Mauritius',
        'Mozambique',
        'Namibia',
        'Niger',
        'Nigeria',
        'Rwanda',
        'Sao Tome and Principe',
        'Senegal',
        'Seychelles',
        'Sierra Leone',
        'Somalia',
        'South Africa',
        'South Sudan',
        'Tanzania',
        'Togo',
        'Uganda',
        'Zambia',
        'Zimbabwe',
      ],
    },
    {
      name: 'Caribbean',
      countries: [
        'Antigua and Barbuda',
        'Bahamas',
        'Barbados',
        'Dominica',
        'Grenada',
        'Haiti',
        'Jamaica',
        'Saint Kitts and Nevis',
        'Saint Lucia',
        'Saint Vincent and the Grenadines',
        'Trinidad and Tobago',
      ],
    },
  ],
  latino_hispanic: [
    {
      name: 'Mexico and Central America',
      countries: ['Mexico', 'Guatemala', 'Honduras', 'El Salvador', 'Nicaragua', 'Costa Rica', 'Panama', 'Belize'],
    },
    {
      name: 'South America',
      countries: [
        'Argentina',
        'Bolivia',
        'Brazil',
        'Chile',
        'Colombia',
        'Ecuador',
        'Guyana',
        'Paraguay',
        'Peru',
        'Suriname',
        'Uruguay',
        'Venezuela',
      ],
    },
    { name: 'Spanish-speaking Caribbean', countries: ['Cuba', 'Dominican Republic', 'Puerto Rico'] },
  ],
  east_asian: [{ name: 'Eastern Asia', countries: ['China', 'Hong Kong', 'Macao', 'Japan', 'South Korea', 'North Korea', 'Mongolia'] }],
  southeast_asian: [
    {
      name: 'South-eastern Asia',
      countries: [
        'Brunei',
        'Cambodia',
        'East Timor',
        'Indonesia',
        'Laos',
        'Malaysia',
        'Myanmar',
        'Philippines',
        'Singapore',
        'Thailand',
        'Vietnam',
      ],
    },
  ],
  indian: [
    {
      name: 'South Asia (Indian subcontinent)',
      countries: ['India', 'Pakistan', 'Bangladesh', 'Nepal', 'Sri Lanka', 'Bhutan', 'Maldives'],
    },
  ],
  middle_eastern: [
    {
      name: 'Western Asia (Middle East)',
      countries: [
        'Bahrain',
        'Iran',
        'Iraq',
        'Israel',
        'Jordan',
        'Kuwait',
        'Lebanon',
        'Oman',
        'Palestine',
        'Qatar',
        'Saudi Arabia',
        'Syria',
        'Turkey',
        'United Arab Emirates',
        'Yemen',
      ],
    },
    { name: 'Northern Africa', countries: ['Algeria', 'Egypt', 'Libya', 'Morocco', 'Sudan', 'Tunisia'] },
  ],
};

/** Shown with every group's figures: what the numbers are and what they are not. */
export const GROUP_CAVEATS: Readonly<Record<HeritageGroupId, string>> = {
  white:
    'Figures are the total populations of these regions, not a count of any group. Europe, Northern America and Oceania are home to people of every appearance and heritage.',
  black:
    'Figures are total regional populations. Africa is the most genetically diverse continent, and large communities with African roots also live in Brazil, the United States, Europe and elsewhere.',
  latino_hispanic:
    'Figures are total regional populations. Latino and Hispanic are cultural and linguistic identities that include people of Indigenous, European, African, Asian and mixed heritage.',
  east_asian:
    'Figures are total regional populations. Eastern Asia includes many peoples and languages, and large East Asian diasporas live worldwide. Taiwan is not listed separately in the source data.',
  southeast_asian:
    'Figures are total regional populations. South-eastern Asia is one of the most linguistically diverse regions in the world, with hundreds of ethnic groups.',
  indian:
    'Figures are total regional populations. South Asia has hundreds of languages and many religions, and large diasporas live in the Gulf states, the United Kingdom, North America and beyond.',
  middle_eastern:
    'Figures are total regional populations. The Middle East and North Africa include Arab, Persian, Turkish, Kurdish, Berber (Amazigh), Jewish, Armenian and many other communities.',
};
