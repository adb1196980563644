import type { CulturalInsight } from '../schemas';

const UNESCO_LISTS = { name: 'UNESCO Intangible Cultural Heritage: Browse the Lists', url: 'https://ich.unesco.org/en/lists' };
const UN_M49 = {
  name: 'United Nations Statistics Division: Standard country or area codes for statistical use (M49)',
  url: 'https://unstats.un.org/unsd/methodology/m49/',
};

/**
 * Cultural context for each report group, written for Roots and reviewed against the checklist in
 * ADR 023: examples tied to named places rather than to a "people"; no claims about character,
 * ability or appearance; diversity within the group stated every time. Most named traditions are
 * elements inscribed on UNESCO's intangible heritage lists (ADR 023 lists them); the rest, such as
 * "jollof rice across West Africa", are general encyclopaedic facts, not inscriptions.
 */
export const CULTURAL_INSIGHTS: readonly CulturalInsight[] = [
  {
    id: 'white',
    title: 'European heritage and its global communities',
    overview:
      'People whose appearance resembles this group live mainly in Europe and in countries shaped by European migration, such as the United States, Canada, Australia, New Zealand, Argentina and Brazil. Europe alone is home to dozens of nations and hundreds of regional cultures.',
    regions: ['Northern Europe', 'Western Europe', 'Southern Europe', 'Eastern Europe', 'Northern America', 'Australia and New Zealand'],
    languages: [
      'Indo-European languages such as English, Spanish, German, French, Italian, Polish and Russian',
      'Finnic languages such as Finnish and Estonian',
      'Hungarian',
      'Basque',
    ],
    traditions: [
      'Flamenco, from Andalusia in southern Spain',
      'Finnish sauna culture',
      'The gastronomic meal of the French, a shared meal for special occasions',
      'Seasonal festivals, carnivals and folk music that differ from valley to valley',
    ],
    cuisine: [
      'The Mediterranean diet of southern European coasts',
      'The art of the Neapolitan pizzaiuolo',
      'Bread, dairy and preserved foods in countless regional styles',
    ],
    diversityNote:
      'There is no single European culture: languages, religions, food and customs change across short distances, and many Europeans today have roots on several continents.',
    sources: [{ name: 'Encyclopaedia Britannica: Europe', url: 'https://www.britannica.com/place/Europe' }, UNESCO_LISTS, UN_M49],
  },
  {
    id: 'black',
    title: 'African heritage and the African diaspora',
    overview:
      'People whose appearance resembles this group live mainly in sub-Saharan Africa and in the African diaspora of the Americas, the Caribbean and Europe. Sub-Saharan Africa has over 45 countries and a great variety of societies, histories and ways of life.',
    regions: ['West Africa', 'Central Africa', 'East Africa', 'Southern Africa', 'The Caribbean', 'The Americas and Europe (diaspora)'],
    languages: [
      'Niger-Congo languages such as Yoruba, Igbo, Swahili, Zulu and Wolof',
      'Afro-Asiatic languages such as Amharic, Oromo, Hausa and Somali',
      'Nilo-Saharan languages',
      'Creole languages of the Caribbean',
    ],
    traditions: [
      'Congolese rumba, from the Democratic Republic of the Congo and the Republic of the Congo',
      'Reggae music of Jamaica',
      'Gule Wamkulu, a masked dance of Malawi, Mozambique and Zambia',
      'Storytelling, drumming and oral history kept by families and communities',
    ],
    cuisine: [
      'Ceebu jën, the rice-and-fish dish of Senegal',
      'Injera with stews in Ethiopia and Eritrea',
      'Jollof rice across West Africa',
      'Caribbean dishes that blend African, Indigenous, European and Asian roots',
    ],
    diversityNote:
      'Africa holds more human genetic diversity than any other continent and well over a thousand languages. Black communities across the world have very different histories, faiths and cultures.',
    sources: [{ name: 'Encyclopaedia Britannica: Africa', url: 'https://www.britannica.com/place/Africa' }, UNESCO_LISTS, UN_M49],
  },
  {
    id: 'latino_hispanic',
    title: 'Latin American and Hispanic heritage',
    overview:
      'People whose appearance resembles this group live mainly in Mexico, Central and South America, the Spanish-speaking Caribbean and the United States. Latino and Hispanic describe shared languages and histories, not a single ancestry.',
    regions: ['Mexico and Central America', 'South America', 'The Caribbean', 'The United States'],
    languages: ['Spanish', 'Portuguese', 'Indigenous languages such as Quechua, Guaraní, Nahuatl, Aymara and the Mayan languages'],
    traditions: [
      'The Indigenous festivity dedicated to the dead (Día de Muertos) in Mexico',
      'Tango, from the Río de la Plata region of Argentina and Uruguay',
      'Rumba in Cuba',
      'Carnival celebrations that differ from country to country',
    ],
    cuisine: [
      'Traditional Mexican cuisine, built on maize, beans and chilli',
      'Andean dishes based on potatoes and quinoa',
      'Arepas, empanadas and tamales in many regional versions',
    ],
    diversityNote:
      'Latin America includes people of Indigenous, European, African, Asian and mixed heritage, in more than twenty countries, each with its own history and culture.',
    sources: [
      { name: 'Encyclopaedia Britannica: Latin America', url: 'https://www.britannica.com/place/Latin-America' },
      UNESCO_LISTS,
      UN_M49,
    ],
  },
  {
    id: 'east_asian',
    title: 'East Asian heritage',
    overview:
      'People whose appearance resembles this group live mainly in China, Japan, Korea, Mongolia and Taiwan, and in East Asian communities around the world. The region has some of the oldest continuous written traditions on Earth.',
    regions: ['China', 'Japan', 'The Korean Peninsula', 'Mongolia', 'Taiwan', 'East Asian diaspora communities worldwide'],
    languages: ['Chinese languages such as Mandarin, Cantonese, Wu and Min', 'Japanese', 'Korean', 'Mongolian'],
    traditions: [
      'Chinese calligraphy',
      'The Spring Festival (Lunar New Year) and its social practices in China',
      'Kimjang, making and sharing kimchi in the Republic of Korea',
      'Traditional Mongolian long song',
    ],
    cuisine: [
      'Washoku, traditional dietary cultures of the Japanese',
      'Regional Chinese cuisines, from Sichuan to Cantonese',
      'Kimchi and shared side dishes in Korea',
      'Tea culture across the region',
    ],
    diversityNote:
      'China alone recognises 56 ethnic groups, and each country of the region has strong regional differences in language, food and custom.',
    sources: [{ name: 'Encyclopaedia Britannica: East Asia', url: 'https://www.britannica.com/place/East-Asia' }, UNESCO_LISTS, UN_M49],
  },
  {
    id: 'southeast_asian',
    title: 'Southeast Asian heritage',
    overview:
      'People whose appearance resembles this group live mainly in the countries of mainland and island Southeast Asia, from Myanmar and Vietnam to Indonesia and the Philippines, and in communities abroad.',
    regions: ['Mainland Southeast Asia', 'Maritime Southeast Asia', 'Southeast Asian diaspora communities worldwide'],
    languages: [
      'Austronesian languages such as Indonesian, Malay, Javanese and Tagalog',
      'Austroasiatic languages such as Vietnamese and Khmer',
      'Tai-Kadai languages such as Thai and Lao',
      'Sino-Tibetan languages such as Burmese',
    ],
    traditions: ['Gamelan music of Indonesia', 'Indonesian batik', 'Khon, the masked dance drama of Thailand', 'Wayang puppet theatre'],
    cuisine: [
      'Hawker culture in Singapore',
      'Rice and noodle dishes in endless local variations',
      'Fresh herbs, fish sauce and spice pastes in many regional kitchens',
    ],
    diversityNote:
      'Southeast Asia is one of the most linguistically diverse regions in the world; Indonesia and the Philippines alone have hundreds of languages. Buddhism, Islam, Christianity, Hinduism and local faiths all have deep roots here.',
    sources: [
      { name: 'Encyclopaedia Britannica: Southeast Asia', url: 'https://www.britannica.com/place/Southeast-Asia' },
      UNESCO_LISTS,
      UN_M49,
    ],
  },
  {
    id: 'indian',
    title: 'South Asian heritage',
    overview:
      'People whose appearance resembles this group live mainly in India, Pakistan, Bangladesh, Nepal and Sri Lanka, and in large South Asian communities in the Gulf states, the United Kingdom, North America, East Africa and the Caribbean.',
    regions: ['India', 'Pakistan', 'Bangladesh', 'Nepal', 'Sri Lanka', 'South Asian diaspora communities worldwide'],
    languages: [
      'Indo-Aryan languages such as Hindi, Urdu, Bengali, Punjabi, Marathi, Gujarati and Nepali',
      'Dravidian languages such as Tamil, Telugu, Kannada and Malayalam',
      'Sinhala',
      'English as a widely shared second language',
    ],
    traditions: [
      'Yoga',
      'Kumbh Mela, a large pilgrimage gathering in India',
      'Durga Puja in Kolkata',
      'Classical music and dance traditions of many regions',
    ],
    cuisine: [
      'Regional cuisines built on rice, wheat breads, lentils and spices',
      'Vegetarian traditions alongside rich meat and fish dishes',
      'Street food that changes from city to city',
    ],
    diversityNote:
      'India alone has 22 languages listed in its constitution and hundreds more in daily use. Hinduism, Islam, Sikhism, Christianity, Buddhism and Jainism all have long histories in the region.',
    sources: [{ name: 'Encyclopaedia Britannica: South Asia', url: 'https://www.britannica.com/place/South-Asia' }, UNESCO_LISTS, UN_M49],
  },
  {
    id: 'middle_eastern',
    title: 'Middle Eastern and North African heritage',
    overview:
      'People whose appearance resembles this group live mainly in Western Asia and North Africa, from Morocco to Iran, and in communities across Europe and the Americas. The region is home to some of the earliest cities and writing systems.',
    regions: ['The Arabian Peninsula', 'The Levant', 'Mesopotamia', 'Anatolia', 'The Iranian Plateau', 'North Africa'],
    languages: ['Arabic in many spoken varieties', 'Persian', 'Turkish', 'Kurdish', 'Hebrew', 'Berber (Amazigh) languages', 'Armenian'],
    traditions: [
      'Arabic calligraphy',
      'Nowruz, the spring new year celebrated from Iran to Central Asia and beyond',
      'Al-Majlis, a cultural and social space for gathering',
      'Knowledge and skills of date palm cultivation',
    ],
    cuisine: [
      'Arabic coffee, a symbol of generosity',
      'Couscous in the Maghreb',
      'Flatbreads, mezze, rice dishes and slow-cooked stews in many regional styles',
    ],
    diversityNote:
      'The region includes Arab, Persian, Turkish, Kurdish, Amazigh, Jewish, Armenian, Assyrian and many other communities, with many faiths and centuries of exchange along trade routes.',
    sources: [{ name: 'Encyclopaedia Britannica: Middle East', url: 'https://www.britannica.com/place/Middle-East' }, UNESCO_LISTS, UN_M49],
  },
];
