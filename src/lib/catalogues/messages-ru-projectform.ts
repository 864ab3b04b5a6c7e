// The ru messages of the 'projectform' area (src/lib/catalogue-areas.ts), one chunk of the build.
// Read here from the whole catalogue; the build replaces this module with the area's messages, compiled
// (scripts/vite-catalogue-areas.ts). Unit tests and the UI kit's dev server run this code as it is.
import ru from '../../../locales/ru.json';
import { catalogueOfArea } from '../catalogue-areas';

export default catalogueOfArea(ru, 'projectform');
