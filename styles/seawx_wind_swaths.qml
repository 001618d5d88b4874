<!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>
<!-- seawx: wind swaths (the area the 34/50/64 kt radii swept) by threshold, translucent fills. Apply in QGIS: Layer Properties > Symbology > Style > Load Style. -->
<qgis version="3.22.0" styleCategories="Symbology">
  <renderer-v2 type="categorizedSymbol" attr="threshold_kt" symbollevels="0" enableorderby="0" forceraster="0">
    <categories>
      <category symbol="0" value="34" label="34 kt wind swath" render="true"/>
      <category symbol="1" value="50" label="50 kt wind swath" render="true"/>
      <category symbol="2" value="64" label="64 kt (hurricane force) wind swath" render="true"/>
      <category symbol="3" value="" label="Other / null" render="true"/>
    </categories>
    <symbols>
      <symbol type="fill" name="0" alpha="1" clip_to_extent="1" force_rhr="0">
        <layer class="SimpleFill" enabled="1" pass="0" locked="0">
          <Option type="Map">
            <Option type="QString" name="color" value="255,215,0,77"/>
            <Option type="QString" name="style" value="solid"/>
            <Option type="QString" name="outline_color" value="255,215,0,220"/>
            <Option type="QString" name="outline_width" value="0.3"/>
            <Option type="QString" name="outline_style" value="solid"/>
          </Option>
        </layer>
      </symbol>
      <symbol type="fill" name="1" alpha="1" clip_to_extent="1" force_rhr="0">
        <layer class="SimpleFill" enabled="1" pass="0" locked="0">
          <Option type="Map">
            <Option type="QString" name="color" value="255,140,0,77"/>
            <Option type="QString" name="style" value="solid"/>
            <Option type="QString" name="outline_color" value="255,140,0,220"/>
            <Option type="QString" name="outline_width" value="0.3"/>
            <Option type="QString" name="outline_style" value="solid"/>
          </Option>
        </layer>
      </symbol>
      <symbol type="fill" name="2" alpha="1" clip_to_extent="1" force_rhr="0">
        <layer class="SimpleFill" enabled="1" pass="0" locked="0">
          <Option type="Map">
            <Option type="QString" name="color" value="224,32,27,77"/>
            <Option type="QString" name="style" value="solid"/>
            <Option type="QString" name="outline_color" value="224,32,27,220"/>
            <Option type="QString" name="outline_width" value="0.3"/>
            <Option type="QString" name="outline_style" value="solid"/>
          </Option>
        </layer>
      </symbol>
      <symbol type="fill" name="3" alpha="1" clip_to_extent="1" force_rhr="0">
        <layer class="SimpleFill" enabled="1" pass="0" locked="0">
          <Option type="Map">
            <Option type="QString" name="color" value="192,192,192,77"/>
            <Option type="QString" name="style" value="solid"/>
            <Option type="QString" name="outline_color" value="192,192,192,220"/>
            <Option type="QString" name="outline_width" value="0.3"/>
            <Option type="QString" name="outline_style" value="solid"/>
          </Option>
        </layer>
      </symbol>
    </symbols>
  </renderer-v2>
  <layerGeometryType>2</layerGeometryType>
</qgis>
